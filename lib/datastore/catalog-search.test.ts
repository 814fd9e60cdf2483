// The words resource_search finds a resource by: folded alike for the index and for `q`.
import { describe, expect, it } from "vitest";
import { catalogWords, foldWords, queryWords } from "./catalog-search";

describe("catalog words", () => {
  it("folds case and accents and splits at anything but letters and digits", () => {
    expect(foldWords("Élève_Übersicht flights-3m, São Paulo")).toEqual(["eleve", "ubersicht", "flights", "3m", "sao", "paulo"]);
    expect(foldWords("  ")).toEqual([]);
  });

  it("indexes the id, name, description, aliases, field ids and labels, each word once", () => {
    const words = catalogWords({
      id: "abc-123",
      name: "Bird strikes",
      description: "Wildlife strikes",
      aliases: ["birdstrikes"],
      fields: [{ id: "Origin State", type: "text", info: { label: "État d'origine", notes: "not indexed" } }, { id: "n", type: "int4" }],
    });
    expect(words.split(" ")).toEqual(["abc", "123", "bird", "strikes", "wildlife", "birdstrikes", "origin", "state", "etat", "d", "origine", "n"]);
  });

  it("takes at most 32 distinct words of a question", () => {
    expect(queryWords("Bird bird BIRD strikes")).toEqual(["bird", "strikes"]);
    expect(queryWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "))).toHaveLength(32);
  });
});
