// ESLint for the trainer's browser scripts: ES modules that build DOM nodes, never HTML strings.
import js from "@eslint/js";
import globals from "globals";

const noHtmlStrings = [
  {
    selector: "MemberExpression[property.name=/^(innerHTML|outerHTML)$/]",
    message: "Build nodes (dom.js h(), textContent) instead of reading or writing HTML.",
  },
  {
    selector: "CallExpression[callee.property.name=/^(insertAdjacentHTML|write|writeln)$/]",
    message: "Build nodes (dom.js h(), textContent) instead of writing HTML.",
  },
];

export default [
  {
    ignores: [
      "node_modules/", ".venv/", "build/", "dist/", "instance/", "runs/", "datasets/", ".cache/",
      "tests/e2e/screenshots/",
    ],
  },
  js.configs.recommended,
  {
    files: ["web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      "no-restricted-syntax": ["error", ...noHtmlStrings],
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always"],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
