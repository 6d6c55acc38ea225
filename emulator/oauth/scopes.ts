/** Splits a space-delimited scope parameter, dropping duplicates and empty entries. */
export function parseScope(scope: string | undefined): string[] {
  if (scope === undefined) return [];
  return [...new Set(scope.split(/\s+/).filter((part) => part !== ""))];
}

/** True when every requested scope (compared case-insensitively) is among the granted ones. */
export function isSubset(requested: readonly string[], granted: readonly string[]): boolean {
  const grantedSet = new Set(granted.map((scope) => scope.toLowerCase()));
  return requested.every((scope) => grantedSet.has(scope.toLowerCase()));
}

export function hasScope(scopes: readonly string[], wanted: string): boolean {
  const lower = wanted.toLowerCase();
  return scopes.some((scope) => scope.toLowerCase() === lower);
}
