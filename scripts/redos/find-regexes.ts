import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** A regular expression written in the source, where it is written. */
export interface FoundRegex {
  file: string;
  line: number;
  source: string;
  flags: string;
}

/** A `new RegExp(...)` or `RegExp(...)` whose pattern is computed, so only running it shows it. */
export interface DynamicSite {
  file: string;
  line: number;
}

export interface SourceRegexes {
  literals: FoundRegex[];
  dynamicSites: DynamicSite[];
}

/** The folders whose code runs in the app: tests and fixtures are not fed a sender's text. */
// Not emulator/: a stand-in for Google and Microsoft that only our own tests talk to.
export const SCANNED_FOLDERS = ["server", "web/src", "contract"];

function isScannedFile(path: string): boolean {
  return (
    /\.tsx?$/.test(path) &&
    !/\.d\.ts$/.test(path) &&
    !/\.test\.tsx?$/.test(path) &&
    !/(^|\/)(test|test-support)(\/|\.ts$)/.test(path)
  );
}

function listFiles(root: string, folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") out.push(...listFiles(root, path));
    } else if (isScannedFile(path)) {
      out.push(path);
    }
  }
  return out;
}

/** A string the compiler can read without running anything: a literal or String.raw`...`. */
function staticText(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (
    ts.isTaggedTemplateExpression(node) &&
    node.tag.getText() === "String.raw" &&
    ts.isNoSubstitutionTemplateLiteral(node.template)
  ) {
    return node.template.rawText;
  }
  return undefined;
}

function isRegExpCall(node: ts.Node): node is ts.NewExpression | ts.CallExpression {
  return (
    (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === "RegExp"
  );
}

/** Every regex literal and every RegExp construction in one TypeScript file. */
export function regexesInFile(file: string, text: string): SourceRegexes {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const literals: FoundRegex[] = [];
  const dynamicSites: DynamicSite[] = [];
  const lineOf = (node: ts.Node) => sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const slash = node.text.lastIndexOf("/");
      literals.push({
        file,
        line: lineOf(node),
        source: node.text.slice(1, slash),
        flags: node.text.slice(slash + 1),
      });
    } else if (isRegExpCall(node)) {
      const [pattern, flags] = node.arguments ?? [];
      const source = pattern && staticText(pattern);
      const flagText = flags === undefined ? "" : staticText(flags);
      if (source !== undefined && flagText !== undefined) {
        literals.push({ file, line: lineOf(node), source, flags: flagText });
      } else {
        dynamicSites.push({ file, line: lineOf(node) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { literals, dynamicSites };
}

/** Every regex literal and RegExp construction in the scanned folders under root. */
export function regexesInSources(root: string): SourceRegexes {
  const literals: FoundRegex[] = [];
  const dynamicSites: DynamicSite[] = [];
  for (const folder of SCANNED_FOLDERS) {
    for (const path of listFiles(root, folder)) {
      const found = regexesInFile(relative(root, join(root, path)), readFileSync(join(root, path), "utf8"));
      literals.push(...found.literals);
      dynamicSites.push(...found.dynamicSites);
    }
  }
  return { literals, dynamicSites };
}
