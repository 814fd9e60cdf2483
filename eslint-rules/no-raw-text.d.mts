// Types for the rule's test (lib/i18n/no-raw-text.test.ts).
import type { Rule } from "eslint";

declare const rule: Rule.RuleModule;
export default rule;
