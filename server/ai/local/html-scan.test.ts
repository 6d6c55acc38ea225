import { describe, expect, it } from "vitest";
import { randomTexts } from "../../test/random-texts.ts";
import {
  commentsToSpaces,
  hiddenElementsToSpaces,
  listItemsToBullets,
  shortTagsToSpaces,
} from "./html-scan.ts";
import { htmlToText } from "./text-cleaning.ts";

const PIECES = [
  "<",
  ">",
  "<!--",
  "-->",
  "-",
  "!",
  "<!-->",
  "<li",
  "<LI",
  "<li>",
  "<lia>",
  "<script",
  "<SCRIPT",
  "</script>",
  "</Script >",
  "</script",
  "<style",
  "</style>",
  "<head",
  "<header>",
  "</head>",
  "</header>",
  "<title>",
  "</TITLE\n>",
  "<noscript>",
  "</noscript>",
  "<br/>",
  "</p>",
  " ",
  "\n",
  "a",
  "x".repeat(1_000),
];

describe("htmlToText's passes in one pass (issue 34)", () => {
  // The regexes they replace, as they were: each text must come out the same.
  it.each<[string, (html: string) => string, RegExp, string]>([
    ["comments", commentsToSpaces, /<!--[\s\S]*?-->/g, " "],
    [
      "hidden elements",
      hiddenElementsToSpaces,
      /<(script|style|head|title|noscript)\b[\s\S]*?<\/\1\s*>/gi,
      " ",
    ],
    ["list items", listItemsToBullets, /<(li)\b[^>]*>/gi, "\n• "],
    ["short tags", shortTagsToSpaces, /<[^>]{0,2000}>/g, " "],
  ])("%s: the regex's output on 4,000 random texts", (_name, scan, regex, by) => {
    for (const text of randomTexts(PIECES, 4_000, 14)) expect(scan(text)).toBe(text.replace(regex, by));
  });

  // 150 KB of HTML (what bodyToText converts at most) made only of openings nothing closes took
  // 0.4 to 7.7 s, rescanning the rest of the text from each.
  it.each(["<!--", "<li ", "<script ", "<style>", "<", "< ", "<a"])(
    "150 KB of unclosed %j in under 150 ms",
    (opening) => {
      const html = opening.repeat(Math.floor(150_000 / opening.length));
      const started = performance.now();
      htmlToText(html);
      expect(performance.now() - started).toBeLessThan(150);
    },
  );

  it("keeps what it kept: a mail with comments, a style block and a list", () => {
    const html =
      "<html><head><title>T</title><style>p{}</style></head><body><!-- x --><p>Hi Sam,</p><ul><li>One</li><li class=a>Two</li></ul>" +
      "<script>1<2</script><p>Thanks</p></body></html>";
    expect(htmlToText(html)).toBe("Hi Sam,\n\n• One\n\n• Two\nThanks");
  });
});
