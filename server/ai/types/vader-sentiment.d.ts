// Minimal declarations for the untyped vader-sentiment package (only what server/ai uses).
declare module "vader-sentiment" {
  export interface PolarityScores {
    neg: number;
    neu: number;
    pos: number;
    compound: number;
  }
  export const SentimentIntensityAnalyzer: {
    polarity_scores(text: string): PolarityScores;
  };
}
