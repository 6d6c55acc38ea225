import { Popover } from "radix-ui";

/** Gmail's operators as the server reads them (server/mail/search-query.ts), with an example each. */
export const SEARCH_OPERATORS: ReadonlyArray<{ example: string; meaning: string }> = [
  { example: "from:priya", meaning: "Sender's name or address, or part of it" },
  { example: "to:dana@acme.com", meaning: "A recipient (To)" },
  { example: "cc:sam", meaning: "A recipient (Cc)" },
  { example: "subject:budget", meaning: "Words in the subject" },
  { example: "has:attachment", meaning: "Mail with attachments" },
  { example: "filename:pdf", meaning: "An attachment's name or type" },
  { example: "is:unread", meaning: "Unread mail (also is:read, is:starred)" },
  { example: "in:archive", meaning: "Archived mail (in:inbox for the inbox)" },
  { example: "after:2026/01/31", meaning: "On or after a day (before: for earlier)" },
  { example: "newer_than:7d", meaning: "Newer than 7 days (d, m, y; also older_than:)" },
  { example: '"exact phrase"', meaning: "These words in this order" },
  { example: "-word", meaning: "Leave out mail with this word (or -from:…)" },
];

/** The "?" by the search field: a popover listing the search operators. */
export function SearchHelp() {
  return (
    <Popover.Root>
      <Popover.Trigger
        aria-label="Search help"
        className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg border border-slate-300 text-sm font-semibold text-slate-600 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=open]:bg-slate-100"
      >
        <span aria-hidden="true">?</span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          aria-labelledby="search-help-title"
          className="z-50 w-[min(24rem,calc(100vw-1rem))] rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-lg focus:outline-none"
        >
          <h3 id="search-help-title" className="font-semibold text-slate-900">
            Search operators
          </h3>
          <p className="mt-1 text-xs text-slate-600">
            Combine them with words; anything else is searched as words.
          </p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
            {SEARCH_OPERATORS.map((op) => (
              <div key={op.example} className="contents">
                <dt>
                  <code className="rounded bg-slate-100 px-1 py-0.5 text-xs text-slate-800">
                    {op.example}
                  </code>
                </dt>
                <dd className="text-xs text-slate-700">{op.meaning}</dd>
              </div>
            ))}
          </dl>
          <Popover.Close
            aria-label="Close search help"
            className="absolute top-2 right-2 rounded p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <span aria-hidden="true">×</span>
          </Popover.Close>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
