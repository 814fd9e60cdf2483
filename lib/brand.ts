// `instanceof` that survives a module loaded twice. Next bundles the instrumentation hook (which
// opens the engine) apart from each route, so an error the engine throws is an instance of
// another copy of its class, and a plain `instanceof` in the route fails (a 409 became a 500).
// A branded class answers `instanceof` by a mark on the object, registered under Symbol.for, so
// every copy of the class, in every bundle, recognises every copy's objects.

const BRANDS = Symbol.for("datastore-explorer.brands");

type Marked = { [BRANDS]?: string[] };

/** Marks `object` as made by the class branded `brand`; a subclass adds its own mark. */
export function mark(object: object, brand: string): void {
  ((object as Marked)[BRANDS] ??= []).push(brand);
}

export function hasBrand(value: unknown, brand: string): boolean {
  return typeof value === "object" && value !== null && ((value as Marked)[BRANDS]?.includes(brand) ?? false);
}
