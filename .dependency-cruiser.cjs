/** Import boundaries (house style 12). `npm run boundaries` fails on any violation. */
module.exports = {
  forbidden: [
    {
      name: "contract-imports-nothing-of-ours",
      comment: "contract/ is shared by server and web; it may only import packages and itself.",
      severity: "error",
      from: { path: "^contract/" },
      to: { path: "^(server|web|emulator|e2e|bench|scripts)/" },
    },
    {
      name: "web-never-imports-server",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(server|emulator|e2e|bench|scripts)/" },
    },
    {
      name: "server-never-imports-web",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^(web|e2e|bench)/" },
    },
    {
      name: "emulator-is-independent",
      comment: "The emulator stands in for Google and Microsoft; it knows nothing of our app.",
      severity: "error",
      from: { path: "^emulator/" },
      to: { path: "^(server|web|e2e|bench|contract)/" },
    },
    {
      name: "only-demo-and-tests-start-the-emulator",
      severity: "error",
      from: { path: "^server/", pathNot: "^server/(demo/|test/|main\\.ts$)|\\.test\\.ts$" },
      to: { path: "^emulator/" },
    },
    {
      name: "providers-never-import-routes",
      severity: "error",
      from: { path: "^server/providers/" },
      to: { path: "^server/.*routes" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist|data|\\.tmp)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
