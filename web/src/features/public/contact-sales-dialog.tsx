import { Dialog } from "radix-ui";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { DialogRoot } from "../../components/ui/dialog-root.tsx";
import {
  CONTACT_SALES_THANKS_MESSAGE,
  HUMAN_CHECK_FAILED_MESSAGE,
  type HumanCheck,
  humanCheckQuestion,
  isHumanCheckAnswerCorrect,
  newHumanCheck,
} from "./human-check.ts";
import { CloseIcon } from "./icons.tsx";

/** Spec section 3: the sales contact form's fields. */
export interface SalesContactRequest {
  companyName: string;
  email: string;
  teamSize: string;
  message: string;
}

const EMPTY_FORM: SalesContactRequest = { companyName: "", email: "", teamSize: "", message: "" };

const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none";
const labelClass = "block text-sm font-medium text-slate-800";

/**
 * The Enterprise contact-sales dialog. Spec section 5: the request is only logged, never sent;
 * company name and email are required and a small sum keeps casual bots out.
 */
export function ContactSalesDialog({ trigger }: { trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<SalesContactRequest>(EMPTY_FORM);
  const [check, setCheck] = useState<HumanCheck>(() => newHumanCheck());
  const [answer, setAnswer] = useState("");
  const ids = useId();

  const field = (name: keyof SalesContactRequest) => ({
    id: `${ids}-${name}`,
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  const reset = () => {
    setForm(EMPTY_FORM);
    setAnswer("");
    setCheck((previous) => newHumanCheck(previous));
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!isHumanCheckAnswerCorrect(check, answer)) {
      window.alert(HUMAN_CHECK_FAILED_MESSAGE);
      return;
    }
    console.info("Contact sales request", form);
    window.alert(CONTACT_SALES_THANKS_MESSAGE);
    reset();
    setOpen(false);
  };

  return (
    <DialogRoot open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60 backdrop-blur-sm" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none sm:p-8">
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-xl font-bold text-slate-900">Contact Sales</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-600">
                Tell us about your team and we will prepare an Enterprise offer.
              </Dialog.Description>
            </div>
            <Dialog.Close
              aria-label="Close"
              className="-mt-1 -mr-2 rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              <CloseIcon className="h-5 w-5" />
            </Dialog.Close>
          </div>
          <form onSubmit={onSubmit} className="mt-6 space-y-4">
            <div>
              <label htmlFor={`${ids}-companyName`} className={labelClass}>
                Company name <span className="text-red-700">*</span>
              </label>
              <input {...field("companyName")} required autoComplete="organization" className={inputClass} />
            </div>
            <div>
              <label htmlFor={`${ids}-email`} className={labelClass}>
                Email <span className="text-red-700">*</span>
              </label>
              <input {...field("email")} type="email" required autoComplete="email" className={inputClass} />
            </div>
            <div>
              <label htmlFor={`${ids}-teamSize`} className={labelClass}>
                Team size <span className="font-normal text-slate-600">(optional)</span>
              </label>
              <input
                {...field("teamSize")}
                inputMode="numeric"
                placeholder="e.g. 50"
                className={inputClass}
              />
            </div>
            <div>
              <label htmlFor={`${ids}-message`} className={labelClass}>
                Message <span className="font-normal text-slate-600">(optional)</span>
              </label>
              <textarea {...field("message")} rows={3} className={inputClass} />
            </div>
            <div className="rounded-xl bg-slate-50 p-4">
              <label htmlFor={`${ids}-answer`} className={labelClass}>
                {humanCheckQuestion(check)}
              </label>
              <p id={`${ids}-answer-hint`} className="text-xs text-slate-600">
                A quick check that you are human.
              </p>
              <div className="mt-2 flex gap-2">
                <input
                  id={`${ids}-answer`}
                  name="humanCheck"
                  inputMode="numeric"
                  autoComplete="off"
                  aria-describedby={`${ids}-answer-hint`}
                  value={answer}
                  onChange={(e) => setAnswer(e.target.value)}
                  className={`${inputClass} mt-0 w-28`}
                />
                <button
                  type="button"
                  onClick={() => {
                    setCheck((previous) => newHumanCheck(previous));
                    setAnswer("");
                  }}
                  className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
                >
                  New
                </button>
              </div>
            </div>
            <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
              <Dialog.Close className="rounded-lg border border-slate-300 px-4 py-2.5 font-medium text-slate-800 hover:bg-slate-100">
                Cancel
              </Dialog.Close>
              <button
                type="submit"
                className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
              >
                Send Request
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </DialogRoot>
  );
}
