import PostalMime from "postal-mime";
import { expect } from "vitest";
import { type Upload, uploadSchema } from "../../contract/compose.ts";
import { emulatorProvider, type Provider } from "./slow-provider.ts";
import { type SyncFixture, waitUntil } from "./sync-fixture.ts";

/**
 * What API tests of writing mail share (issue 36): uploading a file as compose does, and reading
 * what reached a mailbox in the emulator (subjects by label, a message parsed with its files).
 */

/** POST /api/uploads as the compose dialog sends it (multipart, one file). */
export async function upload(
  f: SyncFixture,
  token: string,
  fileName: string,
  bytes: Buffer,
  type = "application/octet-stream",
) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), fileName);
  const response = await fetch(`${f.url}/api/uploads`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, json };
}

/** An upload that must succeed. */
export async function uploaded(
  f: SyncFixture,
  token: string,
  fileName: string,
  bytes: Buffer,
  type?: string,
): Promise<Upload> {
  const answer = await upload(f, token, fileName, bytes, type);
  expect(answer.status).toBe(201);
  return uploadSchema.parse(answer.json);
}

/** Subjects of the messages in a person's emulator mailbox, with `label` when given. */
export async function mailboxSubjects(
  f: SyncFixture,
  email: string,
  provider: Provider,
  label?: string,
): Promise<string[]> {
  const r = await f.admin(
    "GET",
    `mailboxes/${encodeURIComponent(email)}?provider=${emulatorProvider(provider)}${label ? `&label=${label}` : ""}&limit=500`,
  );
  return (r.json as { messages: { subject: string }[] }).messages.map((m) => m.subject);
}

/** The recipient's emulator copy of the mail with this subject, once it arrived, parsed. */
export async function arrived(f: SyncFixture, recipient: string, provider: Provider, subject: string) {
  const box = `mailboxes/${encodeURIComponent(recipient)}`;
  const q = `?provider=${emulatorProvider(provider)}`;
  const id = await waitUntil(
    async () => {
      const list = (await f.admin("GET", `${box}${q}&limit=100`)).json as {
        messages: { id: string; subject: string }[];
      };
      return list.messages.find((m) => m.subject === subject)?.id;
    },
    10_000,
    `"${subject}" in ${recipient}`,
  );
  const raw = ((await f.admin("GET", `${box}/messages/${id}${q}`)).json as { raw: string }).raw;
  return PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
}

/** A parsed attachment's bytes. */
export const bytesOf = (part: { content: ArrayBuffer | string | Uint8Array }) =>
  Buffer.from(
    part.content instanceof ArrayBuffer ? new Uint8Array(part.content) : (part.content as Uint8Array),
  );
