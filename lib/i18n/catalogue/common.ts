// Words the whole interface shares: the site's header, the language menu, generic actions.
import { defineMessages } from "./define";

export const common = defineMessages({
  "site.skip": { en: "Skip to content", fr: "Aller au contenu", de: "Zum Inhalt springen" },
  "site.tagline": {
    en: "Browse, search and download open data tables",
    fr: "Parcourir, rechercher et télécharger des tables de données ouvertes",
    de: "Offene Datentabellen durchsuchen, filtern und herunterladen",
  },
  "language.label": { en: "Language", fr: "Langue", de: "Sprache" },
});
