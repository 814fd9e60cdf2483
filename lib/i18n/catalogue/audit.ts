// The resource page's Recent changes panel (the audit trail, for write tokens).
import { defineMessages } from "./define";

export const audit = defineMessages({
  "audit.title": { en: "Recent changes", fr: "Modifications récentes", de: "Letzte Änderungen" },
  "audit.caption": {
    en: "The last writes to this resource, newest first",
    fr: "Les dernières écritures dans cette ressource, les plus récentes d’abord",
    de: "Die letzten Schreibvorgänge in dieser Ressource, neueste zuerst",
  },
  "audit.loading": { en: "Loading recent changes…", fr: "Chargement des modifications récentes…", de: "Letzte Änderungen werden geladen…" },
  "audit.none": { en: "No change recorded yet.", fr: "Aucune modification enregistrée.", de: "Noch keine Änderung aufgezeichnet." },
  "audit.failed": { en: "The recent changes could not be read.", fr: "Les modifications récentes n’ont pas pu être lues.", de: "Die letzten Änderungen konnten nicht gelesen werden." },
  "audit.when": { en: "When", fr: "Quand", de: "Wann" },
  "audit.token": { en: "Token", fr: "Jeton", de: "Token" },
  "audit.action": { en: "Action", fr: "Action", de: "Aktion" },
  "audit.rows": { en: "Rows", fr: "Lignes", de: "Zeilen" },
  "audit.noToken": { en: "no token", fr: "sans jeton", de: "ohne Token" },
});
