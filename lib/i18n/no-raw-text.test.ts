// The lint rule that keeps words out of components (eslint-rules/no-raw-text.mjs): it reports
// JSX text and the props a reader reads, and lets through translated text, punctuation, numbers
// and the allowed brand names.
import { Linter } from "eslint";
import { describe, expect, it } from "vitest";
import rule from "../../eslint-rules/no-raw-text.mjs";

function problems(code: string): string[] {
  const linter = new Linter({ configType: "flat" });
  const messages = linter.verify(code, [
    {
      files: ["**/*.jsx"],
      languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
      plugins: { i18n: { rules: { "no-raw-text": rule } } },
      rules: { "i18n/no-raw-text": ["error", { allow: ["CSV"] }] },
    },
  ], "x.jsx");
  return messages.map((m) => m.message.split('"')[1] ?? m.message);
}

describe("no-raw-text", () => {
  it("reports words in JSX text, string children and reader-facing props", () => {
    expect(problems(`const a = <p>No rows</p>;`)).toEqual(["No rows"]);
    expect(problems(`const a = <p>{"Loading…"}</p>;`)).toEqual(["Loading…"]);
    expect(problems(`const a = <p>{ok ? "Saved" : t("x")}</p>;`)).toEqual(["Saved"]);
    expect(problems(`const a = <input placeholder="Search" aria-label={\`Find \${x}\`} />;`)).toEqual(["Search", "Find"]);
    expect(problems(`const a = <Button title="Close" copyLabel="Copy link" />;`)).toEqual(["Close", "Copy link"]);
  });

  it("lets through translated text, punctuation, numbers, allowed names and non-text props", () => {
    expect(problems(`const a = <p title={t("x")}>{t("y")} · 42 ✕</p>;`)).toEqual([]);
    expect(problems(`const a = <p className="text-sm" id="search-input" type="button">{" "}</p>;`)).toEqual([]);
    expect(problems(`const a = <p>CSV</p>;`)).toEqual([]);
  });
});
