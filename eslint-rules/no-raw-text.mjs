// An ESLint rule: words a reader sees come from the message catalogue (lib/i18n), so none is left
// in English alone. It reports text written straight into JSX (`<p>No rows</p>`, `{"No rows"}`,
// a template literal with words) and string literals given to the props a reader reads
// (aria-label, title, placeholder, alt, label, ...Label/...Title/...Text/...Placeholder/...Message).
// Text without a letter (punctuation, numbers, symbols) passes, and so do the exact strings in the
// `allow` option (brand and format names: "CKAN", "CSV").
const PROPS = /^(aria-(label|description|roledescription|placeholder|valuetext)|title|placeholder|alt|label|[a-z][A-Za-z]*(Label|Title|Text|Placeholder|Message))$/;
const LETTER = /\p{L}/u;

const rule = {
  meta: {
    type: "problem",
    docs: { description: "User-visible text comes from the message catalogue (useT), not a literal" },
    schema: [{ type: "object", properties: { allow: { type: "array", items: { type: "string" } } }, additionalProperties: false }],
    messages: {
      text: 'Untranslated text "{{text}}": add it to lib/i18n/catalogue and show it with useT() (see /work/notes/i18n.md).',
    },
  },
  create(context) {
    const allow = new Set(context.options[0]?.allow ?? []);
    const words = (s) => {
      const text = s.replace(/\s+/g, " ").trim();
      return text && LETTER.test(text) && !allow.has(text) ? text : null;
    };
    const report = (node, raw) => {
      const text = words(raw);
      if (text) context.report({ node, messageId: "text", data: { text: text.length > 40 ? `${text.slice(0, 40)}…` : text } });
    };
    // a literal or template that is itself the text shown (not a className, a key, a condition's operand)
    const checkExpression = (node) => {
      if (!node) return;
      if (node.type === "Literal" && typeof node.value === "string") report(node, node.value);
      else if (node.type === "TemplateLiteral") report(node, node.quasis.map((q) => q.value.cooked ?? "").join(" "));
      else if (node.type === "ConditionalExpression") {
        checkExpression(node.consequent);
        checkExpression(node.alternate);
      } else if (node.type === "LogicalExpression") checkExpression(node.right);
    };
    return {
      JSXText(node) {
        report(node, node.value);
      },
      JSXExpressionContainer(node) {
        if (node.parent.type === "JSXElement" || node.parent.type === "JSXFragment") checkExpression(node.expression);
      },
      JSXAttribute(node) {
        const name = node.name.type === "JSXIdentifier" ? node.name.name : null;
        if (!name || !PROPS.test(name) || !node.value) return;
        if (node.value.type === "Literal") report(node.value, String(node.value.value));
        else if (node.value.type === "JSXExpressionContainer") checkExpression(node.value.expression);
      },
    };
  },
};
export default rule;
