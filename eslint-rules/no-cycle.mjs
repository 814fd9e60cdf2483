// An ESLint rule: no module of the project may reach itself again through the modules it imports.
// It checks what import/no-cycle checked (imports, re-exports, import() and require() between
// the project's own files, at any depth; type-only imports and packages left out), but builds the
// module graph once per ESLint run, with TypeScript's parser and resolver (tsconfig.json's paths),
// and finds its cycles once (strongly connected components). import/no-cycle walked the graph
// again from every file it linted, and took most of lint's time.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

let compilerOptions;
function options() {
  if (!compilerOptions) {
    const file = path.join(ROOT, "tsconfig.json");
    const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(file, ts.sys.readFile).config, ts.sys, ROOT);
    // Plain JavaScript modules (scripts/*.mjs) are part of the graph too.
    compilerOptions = { ...parsed.options, allowJs: true };
  }
  return compilerOptions;
}

const resolutionCache = new Map();
/** The project file `spec` names from `from`, or null (a package, a type declaration, unknown). */
function resolve(spec, from) {
  const key = `${path.dirname(from)}\0${spec}`;
  if (!resolutionCache.has(key)) {
    const r = ts.resolveModuleName(spec, from, options(), ts.sys).resolvedModule;
    const ok = r && !r.isExternalLibraryImport && !r.resolvedFileName.endsWith(".d.ts") && !r.resolvedFileName.includes("/node_modules/");
    resolutionCache.set(key, ok ? path.resolve(r.resolvedFileName) : null);
  }
  return resolutionCache.get(key);
}

const literal = (node) => (node && ts.isStringLiteralLike(node) ? node.text : null);

/** The module specifiers a file imports for their values (type-only imports left out). */
function valueImports(file) {
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const specs = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause &&
        (clause.isTypeOnly ||
          (!clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) specs.push(literal(node.moduleSpecifier));
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
      const typeOnly = node.isTypeOnly || (named && named.length > 0 && named.every((e) => e.isTypeOnly));
      if (node.moduleSpecifier && !typeOnly) specs.push(literal(node.moduleSpecifier));
    } else if (ts.isImportEqualsDeclaration(node)) {
      if (!node.isTypeOnly && ts.isExternalModuleReference(node.moduleReference)) specs.push(literal(node.moduleReference.expression));
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) specs.push(literal(node.arguments[0]));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs.filter((s) => s !== null);
}

/** file -> the project files it imports (values). Built as files are reached. */
const graph = new Map();
function edges(file) {
  if (!graph.has(file)) {
    graph.set(file, [...new Set(valueImports(file).map((s) => resolve(s, file)).filter((f) => f && f !== file))]);
  }
  return graph.get(file);
}

// Tarjan's strongly connected components over the files reached so far; a file's component is
// known once a search from it (or from a file that reaches it) has ended.
const component = new Map();
const componentSize = new Map();
let nextIndex = 0;
function components(root) {
  if (component.has(root)) return;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  // Iterative: a deep chain of imports must not overflow the call stack.
  const work = [[root, 0]];
  index.set(root, nextIndex);
  low.set(root, nextIndex++);
  stack.push(root);
  onStack.add(root);
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [v, i] = frame;
    const out = edges(v);
    if (i < out.length) {
      frame[1]++;
      const w = out[i];
      if (component.has(w)) continue; // in a component already closed: no way back to v
      if (!index.has(w)) {
        index.set(w, nextIndex);
        low.set(w, nextIndex++);
        stack.push(w);
        onStack.add(w);
        work.push([w, 0]);
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(v)));
    }
    if (low.get(v) === index.get(v)) {
      let size = 0;
      for (;;) {
        const w = stack.pop();
        onStack.delete(w);
        component.set(w, v);
        size++;
        if (w === v) break;
      }
      componentSize.set(v, size);
    }
  }
}

/** The shortest chain of imports from `from` back to `to`, inside their component. */
function chain(from, to) {
  const c = component.get(to);
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const v = queue.shift();
    if (v === to) break;
    for (const w of edges(v)) {
      if (component.get(w) !== c || previous.has(w)) continue;
      previous.set(w, v);
      queue.push(w);
    }
  }
  const files = [];
  for (let v = to; v !== null && v !== undefined; v = previous.get(v)) files.unshift(path.relative(ROOT, v));
  return files;
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Forbid a module from importing a module with a chain of imports back to itself." },
    schema: [],
  },
  create(context) {
    const me = path.resolve(context.physicalFilename ?? context.getPhysicalFilename());
    if (!fs.existsSync(me)) return {};
    components(me);
    if (componentSize.get(component.get(me)) < 2) return {};
    const check = (node, spec, typeOnly = false) => {
      if (typeOnly || typeof spec !== "string") return;
      const target = resolve(spec, me);
      if (!target || target === me) return;
      components(target);
      if (component.get(target) !== component.get(me)) return;
      context.report({ node, message: `Dependency cycle: ${chain(target, me).join(" => ")}` });
    };
    return {
      ImportDeclaration(node) {
        const typeOnly = node.importKind === "type" || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === "type"));
        check(node, node.source.value, typeOnly);
      },
      ExportNamedDeclaration(node) {
        if (!node.source) return;
        const typeOnly = node.exportKind === "type" || (node.specifiers.length > 0 && node.specifiers.every((s) => s.exportKind === "type"));
        check(node, node.source.value, typeOnly);
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === "type");
      },
      TSImportEqualsDeclaration(node) {
        if (node.moduleReference.type === "TSExternalModuleReference") check(node, node.moduleReference.expression.value, node.importKind === "type");
      },
      ImportExpression(node) {
        if (node.source.type === "Literal") check(node, node.source.value);
      },
      CallExpression(node) {
        if (node.callee.type === "Identifier" && node.callee.name === "require" && node.arguments[0]?.type === "Literal") check(node, node.arguments[0].value);
      },
    };
  },
};
export default rule;
