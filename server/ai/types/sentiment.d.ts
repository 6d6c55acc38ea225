// Minimal declarations for the untyped `sentiment` package (AFINN baseline in bench/ai only).
declare module "sentiment" {
  interface AnalysisResult {
    score: number;
    comparative: number;
  }
  export default class Sentiment {
    analyze(text: string): AnalysisResult;
  }
}
