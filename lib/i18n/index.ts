// The interface's words in English, French and German: the catalogue, the languages, the lookup.
// Isomorphic and React-free; the provider and useT() hook live in components/i18n.
export * from "./languages";
export * from "./translate";
export { catalogue, type MessageKey } from "./catalogue";
