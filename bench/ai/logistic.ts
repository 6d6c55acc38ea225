/** Plain batch-gradient logistic regression with L2 on the weights (not the bias). */
export interface LogisticModel {
  weights: number[];
  bias: number;
}

export function fitLogistic(
  x: number[][],
  y: number[],
  l2 = 0.01,
  iterations = 3000,
  rate = 0.5,
): LogisticModel {
  const d = x[0]?.length ?? 0;
  const weights = new Array<number>(d).fill(0);
  let bias = 0;
  const n = x.length;
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d).fill(0);
    let gradBias = 0;
    for (let r = 0; r < n; r++) {
      const row = x[r] ?? [];
      let z = bias;
      for (let i = 0; i < d; i++) z += (weights[i] ?? 0) * (row[i] ?? 0);
      const err = 1 / (1 + Math.exp(-z)) - (y[r] ?? 0);
      for (let i = 0; i < d; i++) grad[i] = (grad[i] ?? 0) + err * (row[i] ?? 0);
      gradBias += err;
    }
    for (let i = 0; i < d; i++)
      weights[i] = (weights[i] ?? 0) - rate * ((grad[i] ?? 0) / n + l2 * (weights[i] ?? 0));
    bias -= (rate * gradBias) / n;
  }
  return { weights, bias };
}

export function predictLogit(model: LogisticModel, row: number[]): number {
  let z = model.bias;
  for (let i = 0; i < row.length; i++) z += (model.weights[i] ?? 0) * (row[i] ?? 0);
  return z;
}
