export { analyzeEmail, LOCAL_ANALYZER_VERSION } from "./analyze.ts";
export { scanEmail } from "./security/scan.ts";
export type { AnalyzerContext, AnalyzerInput, PriorityHandling } from "./types.ts";
