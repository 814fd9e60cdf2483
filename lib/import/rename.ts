// Renames a file's columns as they are read (`names`: column in the file → field id), so the
// plan, the types, the key and the loader all speak of field ids only. The same wrapper runs
// in the load worker, which reads the file again.
import { ImportError, type Source } from "./source";
import { optionName, type Wording } from "./wording";

export function renamed(source: Source, names: Record<string, string> | undefined, wording?: Wording): Source {
  const pairs = Object.entries(names ?? {}).filter(([from, to]) => from !== to);
  if (pairs.length === 0) return source;
  if (source.keyed) {
    // Keys are met row by row: every value is taken out first, so a swap (a→b, b→a) works.
    return {
      ...source,
      async *batches() {
        for await (const batch of source.batches()) {
          for (const rec of batch.rows as Record<string, unknown>[]) {
            const values = pairs.map(([from]) => (Object.hasOwn(rec, from) ? rec[from] : undefined));
            for (const [from] of pairs) delete rec[from];
            pairs.forEach(([, to], i) => {
              if (values[i] !== undefined) rec[to] = values[i];
            });
          }
          yield batch;
        }
      },
    };
  }
  const option = optionName(wording, "names");
  const map = new Map(pairs);
  for (const from of map.keys()) {
    if (!source.columns.includes(from)) throw new ImportError(`${option}: "${from}" is not a column of the file`);
  }
  const columns = source.columns.map((c) => map.get(c) ?? c);
  const twice = columns.find((c, i) => columns.indexOf(c) !== i);
  if (twice !== undefined) throw new ImportError(`${option}: two columns would be called "${twice}"`);
  return { ...source, columns };
}
