import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { parseSearch, searchFilter } from "./search-query.ts";

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe("parseSearch", () => {
  it("reads each operator", () => {
    const { operators, text } = parseSearch(
      "from:priya to:dana cc:cy@x.org subject:budget has:attachment filename:pdf is:unread is:read is:starred in:inbox in:archive before:2026/03/01 after:2026-02-01 newer_than:2d older_than:3m newer_than:1y",
    );
    expect(text).toBe("");
    expect(operators).toEqual([
      { field: "from", value: "priya", negated: false },
      { field: "to", value: "dana", negated: false },
      { field: "cc", value: "cy@x.org", negated: false },
      { field: "subject", value: "budget", negated: false },
      { field: "has", value: "attachment", negated: false },
      { field: "filename", value: "pdf", negated: false },
      { field: "is", value: "unread", negated: false },
      { field: "is", value: "read", negated: false },
      { field: "is", value: "starred", negated: false },
      { field: "in", value: "inbox", negated: false },
      { field: "in", value: "archive", negated: false },
      { field: "before", value: day("2026-03-01"), negated: false },
      { field: "after", value: day("2026-02-01"), negated: false },
      { field: "newer_than", value: { amount: 2, unit: "d" }, negated: false },
      { field: "older_than", value: { amount: 3, unit: "m" }, negated: false },
      { field: "newer_than", value: { amount: 1, unit: "y" }, negated: false },
    ]);
  });

  it("is case-insensitive in names and keyword values, and keeps a value's case", () => {
    expect(parseSearch("FROM:Priya IS:Unread Has:Attachment").operators).toEqual([
      { field: "from", value: "Priya", negated: false },
      { field: "is", value: "unread", negated: false },
      { field: "has", value: "attachment", negated: false },
    ]);
  });

  it("combines operators with plain words, phrases and excluded words", () => {
    const parsed = parseSearch('quarterly from:priya "exact phrase" -draft budget');
    expect(parsed.operators).toEqual([{ field: "from", value: "priya", negated: false }]);
    expect(parsed.text).toBe('quarterly "exact phrase" -draft budget');
    expect(parsed.typingWord).toBe(true);
  });

  it("matches the last plain word as a prefix only while it is the last thing typed", () => {
    expect(parseSearch("budg").typingWord).toBe(true);
    expect(parseSearch("budg from:priya").typingWord).toBe(false);
    expect(parseSearch('budget "q3').typingWord).toBe(false);
    expect(parseSearch("budget -draf").typingWord).toBe(false);
    expect(parseSearch("is:unread bud").typingWord).toBe(true);
  });

  it("negates operators with a leading -", () => {
    expect(parseSearch("-from:priya -is:read -has:attachment -in:inbox").operators).toEqual([
      { field: "from", value: "priya", negated: true },
      { field: "is", value: "read", negated: true },
      { field: "has", value: "attachment", negated: true },
      { field: "in", value: "inbox", negated: true },
    ]);
  });

  it("takes quoted operator values with spaces, even unterminated ones", () => {
    expect(parseSearch('subject:"q3 budget" from:"Priya Shah" rest').operators).toEqual([
      { field: "subject", value: "q3 budget", negated: false },
      { field: "from", value: "Priya Shah", negated: false },
    ]);
    expect(parseSearch('filename:"Q3 Budget.pdf').operators).toEqual([
      { field: "filename", value: "Q3 Budget.pdf", negated: false },
    ]);
    const open = parseSearch('budget "q3 plan');
    expect(open.text).toBe('budget "q3 plan');
  });

  it("reads dates as Gmail writes them, and only real days", () => {
    expect(parseSearch("before:2026/1/5").operators[0]).toMatchObject({ value: day("2026-01-05") });
    expect(parseSearch("after:12/31/2025").operators[0]).toMatchObject({ value: day("2025-12-31") });
    expect(parseSearch("before:2024/02/29").operators[0]).toMatchObject({ value: day("2024-02-29") });
    for (const bad of [
      "before:2026/02/30",
      "after:2026/13/01",
      "before:yesterday",
      "after:2026/1",
      "before:",
    ]) {
      const parsed = parseSearch(bad);
      expect(parsed.operators, bad).toEqual([]);
      expect(parsed.text, bad).toBe(bad);
    }
  });

  it("searches bad or unknown operators as plain words, never failing", () => {
    for (const q of [
      "label:work",
      "is:important",
      "has:drive",
      "in:spam",
      "newer_than:2w",
      "older_than:d",
      "from:",
      "from:@.",
      'subject:"',
      "subject:!!!",
      "http://example.com",
      ":colon",
      "a:b:c",
    ]) {
      const parsed = parseSearch(q);
      expect(parsed.operators, q).toEqual([]);
      expect(parsed.text, q).toBe(q);
    }
    expect(parseSearch("label:work from:priya").text).toBe("label:work");
  });

  it("treats a lone - and other punctuation as words", () => {
    expect(parseSearch("- -").text).toBe("- -");
    expect(parseSearch('-"a b" c').text).toBe('-"a b" c');
    expect(parseSearch("-").operators).toEqual([]);
  });

  it("parses 200 characters of any shape in linear time", () => {
    const soup = [
      '-"'.repeat(100),
      '"'.repeat(200),
      "from:".repeat(40),
      "a:".repeat(100),
      '-a:"'.repeat(50),
      'subject:"'.repeat(22),
      "is:unread ".repeat(20),
      "before:2026/01/01 ".repeat(11),
      "-".repeat(200),
      ":".repeat(200),
    ];
    for (const q of soup) {
      const started = performance.now();
      for (let i = 0; i < 1_000; i++) parseSearch(q);
      expect(performance.now() - started, q).toBeLessThan(500);
    }
  });
});

describe("searchFilter", () => {
  const dialect = new PgDialect();
  const render = (q: string, now = new Date("2026-06-15T12:00:00Z")) => {
    const filter = searchFilter(q, now);
    return filter ? { ...dialect.sqlToQuery(filter.where), includesArchived: filter.includesArchived } : null;
  };

  it("is null for blank text", () => {
    expect(render("")).toBeNull();
    expect(render("   ")).toBeNull();
  });

  it("matches address words by field weight, split as the stored vector splits them", () => {
    const from = render("from:priya.shah@gmail.com");
    expect(from?.sql).toContain('"emails"."search_fields" @@ to_tsquery(\'simple\', $1)');
    expect(from?.params).toEqual(["'priya shah gmail com':A"]);
    expect(render("to:dana")?.params).toEqual(["'dana':B"]);
    expect(render("cc:cy")?.params).toEqual(["'cy':C"]);
    expect(render('filename:"Q3 Budget.pdf"')?.params).toEqual(["'Q3 Budget pdf':D"]);
    // The subject is in the plain search vector (weight A), whose words are split by the parser.
    expect(render("subject:budget.pdf")?.sql).toContain('"emails"."search" @@ to_tsquery');
    expect(render("subject:budget.pdf")?.params).toEqual(["'budget.pdf':A"]);
  });

  it("quotes values so no tsquery syntax gets through", () => {
    expect(render("from:o'brien\\x")?.params).toEqual(["'o''brien\\\\x':A"]);
    expect(render("subject:a&b|!c")?.params).toEqual(["'a&b|!c':A"]);
  });

  it("turns flags, places and dates into column conditions", () => {
    expect(render("is:unread")?.sql).toBe('not "emails"."is_read"');
    expect(render("is:read")?.sql).toBe('"emails"."is_read"');
    expect(render("is:starred")?.sql).toBe('"emails"."is_starred"');
    expect(render("has:attachment")?.sql).toBe('"emails"."has_attachments"');
    expect(render("in:inbox")).toMatchObject({ sql: '"emails"."in_inbox"', includesArchived: true });
    expect(render("in:archive")).toMatchObject({ sql: 'not "emails"."in_inbox"', includesArchived: true });
    expect(render("is:unread")?.includesArchived).toBe(false);
    expect(render("before:2026/03/01")).toMatchObject({
      sql: '"emails"."received_at" < $1::timestamptz',
      params: ["2026-03-01T00:00:00.000Z"],
    });
    expect(render("after:2026/03/01")?.sql).toBe('"emails"."received_at" >= $1::timestamptz');
  });

  it("counts newer_than and older_than back from now in days, months and years", () => {
    expect(render("newer_than:2d")).toMatchObject({
      sql: '"emails"."received_at" > $1::timestamptz',
      params: ["2026-06-13T12:00:00.000Z"],
    });
    expect(render("older_than:3m")).toMatchObject({
      sql: '"emails"."received_at" < $1::timestamptz',
      params: ["2026-03-15T12:00:00.000Z"],
    });
    expect(render("newer_than:1y")?.params).toEqual(["2025-06-15T12:00:00.000Z"]);
    // Far past any mail: clamped to year 1 rather than a date PostgreSQL cannot read.
    expect(render("older_than:999999y")?.params).toEqual(["0001-01-01T00:00:00.000Z"]);
    expect(render("older_than:999999d")?.params).toEqual(["0001-01-01T00:00:00.000Z"]);
  });

  it("negates operators and ANDs everything with the plain words", () => {
    const both = render("-from:priya budg");
    expect(both?.sql).toBe(
      '(not ("emails"."search_fields" @@ to_tsquery(\'simple\', $1)) and "emails"."search" @@ to_tsquery(\'simple\', $2))',
    );
    expect(both?.params).toEqual(["'priya':A", "budg:*"]);
    // The last plain word is not a prefix when an operator follows it.
    expect(render("budg is:unread")).toMatchObject({
      sql: '(not "emails"."is_read" and "emails"."search" @@ websearch_to_tsquery(\'simple\', $1))',
      params: ["budg"],
    });
    expect(render("label:work")?.params).toEqual(["label:work"]);
  });
});
