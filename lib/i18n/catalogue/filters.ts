// Filters: the chips, "Add filter", the filter dialog (field picker, values, ranges, conditions).
import { defineMessages } from "./define";

export const filters = defineMessages({
  "chip.or": { en: " or ", fr: " ou ", de: " oder " },
  "chip.not": { en: "not {values}", fr: "pas {values}", de: "nicht {values}" },
  "chip.range": { en: "{from} to {to}", fr: "de {from} à {to}", de: "{from} bis {to}" },
  "chip.from": { en: "from {from}", fr: "à partir de {from}", de: "ab {from}" },
  "chip.upTo": { en: "up to {to}", fr: "jusqu’à {to}", de: "bis {to}" },
  "chip.empty": { en: "is empty", fr: "est vide", de: "ist leer" },
  "chip.notEmpty": { en: "is not empty", fr: "n’est pas vide", de: "ist nicht leer" },
  "chip.edit": { en: "Edit this filter", fr: "Modifier ce filtre", de: "Diesen Filter bearbeiten" },
  "chip.remove": { en: "Remove filter {filter}", fr: "Retirer le filtre {filter}", de: "Filter {filter} entfernen" },
  "filter.add": { en: "Add filter", fr: "Ajouter un filtre", de: "Filter hinzufügen" },
  "filter.titleField": { en: "Filter: {field}", fr: "Filtre : {field}", de: "Filter: {field}" },
  "filter.titleCombined": { en: "Combined filter", fr: "Filtre combiné", de: "Kombinierter Filter" },
  "filter.titleNew": { en: "New filter", fr: "Nouveau filtre", de: "Neuer Filter" },
});
