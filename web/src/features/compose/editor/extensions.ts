import { Extension, Node } from "@tiptap/react";
import { StarterKit } from "@tiptap/starter-kit";
import { SIGNATURE_MARK } from "../signature-html.ts";
import { isAllowedLink } from "./links.ts";

/**
 * A line of the message, written as <div> the way Gmail and Outlook write one: a <p> has margins,
 * so a mail of lines written as paragraphs would arrive double-spaced. Reads both.
 */
const Line = Node.create({
  name: "paragraph",
  priority: 1000,
  group: "block",
  content: "inline*",
  parseHTML: () => [{ tag: "p" }, { tag: "div" }],
  renderHTML: ({ HTMLAttributes }) => ["div", HTMLAttributes, 0],
});

/**
 * The account signature (issue 36): a block of blocks marked so the From select can swap it where
 * it stands (signature-html.ts). Its rule outranks Line's plain div. The server drops the attribute.
 */
const Signature = Node.create({
  name: "signature",
  group: "block",
  content: "block+",
  defining: true,
  parseHTML: () => [{ tag: `div[${SIGNATURE_MARK}]`, priority: 100 }],
  renderHTML: ({ HTMLAttributes }) => ["div", { ...HTMLAttributes, [SIGNATURE_MARK]: "" }, 0],
});

/** Keys the compose dialog owns: Ctrl+K opens the link prompt; Ctrl+Enter is the form's (send). */
function composeKeys(openLinkPrompt: () => void) {
  return Extension.create({
    name: "composeKeys",
    // Before StarterKit's hard break, which would take Mod-Enter.
    priority: 1000,
    addKeyboardShortcuts() {
      return {
        "Mod-k": () => {
          openLinkPrompt();
          return true;
        },
        // Handled by the form's keydown (it sends from any field); no line break is inserted.
        "Mod-Enter": () => true,
      };
    },
  });
}

/**
 * What the editor can make: bold, italic, underline, links, bulleted and numbered lists, quotes
 * (issue 36). Headings, code, strike and rules are off: they are not in the toolbar, and the
 * server's allow-list for sent mail is these elements.
 */
export function messageExtensions(openLinkPrompt: () => void) {
  return [
    StarterKit.configure({
      paragraph: false,
      heading: false,
      code: false,
      codeBlock: false,
      strike: false,
      horizontalRule: false,
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: "https",
        // Only http(s) and mailto, pasted, typed or autolinked alike.
        isAllowedUri: (url) => isAllowedLink(url),
        HTMLAttributes: { target: "_blank", rel: "noopener noreferrer" },
      },
    }),
    Line,
    Signature,
    composeKeys(openLinkPrompt),
  ];
}
