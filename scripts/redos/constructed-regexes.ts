/**
 * Prints (as JSON) every RegExp the app builds with `new RegExp(...)` while its modules load and
 * while the local analyzer reads the dev mail set: many patterns are joined from word lists or
 * from the reader's own domain, so only running them shows the pattern. Run in its own process
 * (tsx) so the modules load afresh under the hook. Usage: tsx scripts/redos/constructed-regexes.ts
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export interface ConstructedRegex {
  file: string;
  line: number;
  source: string;
  flags: string;
}

const TRADE_DOMAINS = [
  "oak-school.co.uk",
  "little-nursery.co.uk",
  "riverside-vets.co.uk",
  "city-lettings.co.uk",
  "hale-construction.co.uk",
  "north-health.org",
  "prime-insurance.co.uk",
  "harbour-hotel.co.uk",
  "core-gym.com",
  "acme-it.co.uk",
  "sun-travel.com",
  "green-garden.co.uk",
  "kings-motors.co.uk",
  "luxe-salon.co.uk",
  "royal-theatre.org",
];

const root = join(fileURLToPath(import.meta.url), "..", "..", "..");
const seen = new Map<string, ConstructedRegex>();
const NativeRegExp = RegExp;

/**
 * Where the RegExp was built: the caller of the constructor, when that is our source. Libraries'
 * own patterns (wink-nlp, natural) are theirs to keep; the scan covers ours.
 */
function callSite(): { file: string; line: number } | null {
  const here = fileURLToPath(import.meta.url);
  for (const frame of (new Error().stack ?? "").split("\n").slice(1)) {
    const at = /\((?:file:\/\/)?([^()]+):(\d+):\d+\)$|at (?:file:\/\/)?([^()\s]+):(\d+):\d+$/.exec(frame);
    const path = at?.[1] ?? at?.[3];
    const line = at?.[2] ?? at?.[4];
    if (!path || !line || path === here) continue;
    if (!path.startsWith(root) || path.includes("node_modules")) return null;
    return { file: relative(root, path), line: Number(line) };
  }
  return null;
}

function record(made: RegExp): RegExp {
  const site = callSite();
  if (site)
    seen.set(`${site.file}:${site.line}/${made.source}/${made.flags}`, {
      ...site,
      source: made.source,
      flags: made.flags,
    });
  return made;
}

// Literals never call the constructor, so this records only `new RegExp(...)` and `RegExp(...)`.
globalThis.RegExp = new Proxy(NativeRegExp, {
  construct: (target, args: [string | RegExp, string?], newTarget) =>
    record(Reflect.construct(target, args, newTarget)),
  apply: (target, _this, args: [string | RegExp, string?]) => record(Reflect.construct(target, args)),
});

try {
  const { analyzeEmail } = await import("../../server/ai/local/analyze.ts");
  const { containsForbidden } = await import("../../server/ai/drafting/forbidden.ts");
  const { decodeBatch } = await import("../../server/providers/gmail/batch-wire.ts");
  await import("../../server/mail/action-rules.ts");
  const { readersBusinessWords, readersTradeWords } = await import("../../server/ai/local/trade.ts");
  // One address per trade the reader's domain can name, so every trade's words join the pattern.
  const tradeAddresses = TRADE_DOMAINS.map((d) => `kate@${d}`);
  readersTradeWords(tradeAddresses);
  readersBusinessWords(tradeAddresses);
  containsForbidden("Please reply asap!", ["as soon as possible", "ASAP!"]);
  decodeBatch("--batch_x\r\n\r\n--batch_x--", "batch_x");
  interface DevMail {
    from: { name: string; address: string };
    subject: string;
    text: string;
    html?: string;
    attachments?: Array<{ filename: string; mimeType: string }>;
  }
  const dev = JSON.parse(readFileSync(join(root, "bench/ai/labels/mail-dev.json"), "utf8")) as {
    context: {
      userAddresses: string[];
      contactDomains: string[];
      colleagues: Array<{ name: string; address: string }>;
      receivedAt: string;
    };
    mail: DevMail[];
  };
  for (const mail of dev.mail) {
    analyzeEmail(
      {
        from: mail.from,
        subject: mail.subject,
        bodyText: mail.text,
        bodyHtml: mail.html ?? null,
        receivedAt: new Date(dev.context.receivedAt),
        attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, mimeType: a.mimeType })),
      },
      { ...dev.context, receivedAt: undefined } as never,
    );
  }
  // A person writing to a reader whose domain names a trade, with an ordinal date: the rules that
  // build patterns from the reader's trade and from the mail's own words run.
  analyzeEmail(
    {
      from: { name: "Sam Price", address: "sam.price@gmail.com" },
      subject: "Football on the 3rd of June",
      bodyText:
        "Hi Kate,\n\nCould your son come to football on the 12th of May? Not last Tuesday, the next one.\n\nThanks,\nSam",
      bodyHtml: null,
      receivedAt: new Date(dev.context.receivedAt),
    },
    { userAddresses: ["kate@oak-school.co.uk"], isKnownContact: true },
  );
} finally {
  globalThis.RegExp = NativeRegExp;
}
process.stdout.write(JSON.stringify([...seen.values()]));
