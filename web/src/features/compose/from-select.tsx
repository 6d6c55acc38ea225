import type { MailAccount } from "../../../../contract/auth.ts";

/** The From select (issue 36): one option per linked account; sending goes through the chosen one. */
export function FromSelect({
  id,
  accounts,
  value,
  onChange,
  className,
  labelClassName,
}: {
  id: string;
  accounts: readonly MailAccount[];
  value: string | null;
  onChange: (accountId: string) => void;
  className: string;
  labelClassName: string;
}) {
  if (accounts.length === 0) return null;
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        From
      </label>
      <select id={id} className={className} value={value ?? ""} onChange={(e) => onChange(e.target.value)}>
        {accounts.map((account) => (
          <option key={account.id} value={account.id}>
            {fromLabel(account)}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * An account as the select shows it: the address first, then the name. A select cannot wrap, and
 * on a phone the end of the line is cut off; the address is what tells the accounts apart.
 */
export function fromLabel(account: Pick<MailAccount, "email" | "displayName">): string {
  return account.displayName && account.displayName !== account.email
    ? `${account.email} (${account.displayName})`
    : account.email;
}

/** A reply starts from the account that received the mail, new mail from the first active one. */
export function defaultFromAccount(
  accounts: readonly MailAccount[],
  receivedBy: string | null,
): string | null {
  if (receivedBy && accounts.some((a) => a.id === receivedBy)) return receivedBy;
  return (accounts.find((a) => a.status === "active") ?? accounts[0])?.id ?? null;
}
