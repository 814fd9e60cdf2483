// Words the whole interface shares: the site's header, the language menu, generic actions.
import { defineMessages } from "./define";

export const common = defineMessages({
  "site.skip": { en: "Skip to content", fr: "Aller au contenu", de: "Zum Inhalt springen" },
  "site.tagline": {
    en: "Browse, search and download open data tables",
    fr: "Parcourir, rechercher et télécharger des tables de données ouvertes",
    de: "Offene Datentabellen durchsuchen, filtern und herunterladen",
  },
  "site.description": {
    en: "Browse, search and filter open data tables through a CKAN-compatible DataStore API.",
    fr: "Parcourir, rechercher et filtrer des tables de données ouvertes grâce à une API DataStore compatible avec CKAN.",
    de: "Offene Datentabellen über eine CKAN-kompatible DataStore-API durchblättern, durchsuchen und filtern.",
  },
  "language.label": { en: "Language", fr: "Langue", de: "Sprache" },
  "common.close": { en: "Close", fr: "Fermer", de: "Schließen" },
  "common.copied": { en: "Copied", fr: "Copié", de: "Kopiert" },
  "common.copyFailed": { en: "Copy failed: select the text and copy it", fr: "La copie a échoué : sélectionnez le texte et copiez-le", de: "Kopieren fehlgeschlagen: Markieren und kopieren Sie den Text" },
  "value.nullTitle": { en: "No value (null)", fr: "Pas de valeur (null)", de: "Kein Wert (null)" },
  "value.empty": { en: "empty", fr: "vide", de: "leer" },
  "table.caption": {
    en: "{caption}. Select a row to see all its fields. Click a column header to sort.",
    fr: "{caption}. Sélectionnez une ligne pour voir tous ses champs. Cliquez sur un en-tête de colonne pour trier.",
    de: "{caption}. Wählen Sie eine Zeile, um alle ihre Felder zu sehen. Klicken Sie auf einen Spaltenkopf, um zu sortieren.",
  },
  "table.sortHint": { en: "Click to sort; Shift-click adds a second sort.", fr: "Cliquez pour trier ; Maj-clic ajoute un second tri.", de: "Klicken zum Sortieren; Umschalt-Klick fügt eine zweite Sortierung hinzu." },
  // the header's token box
  "token.label": { en: "Token", fr: "Jeton", de: "Token" },
  "token.placeholderInUse": { en: "In use (hidden)", fr: "En cours d’utilisation (masqué)", de: "In Verwendung (verborgen)" },
  "token.placeholder": { en: "API token for private data", fr: "Jeton d’API pour les données privées", de: "API-Token für private Daten" },
  "token.remember": { en: "Remember on this device", fr: "Mémoriser sur cet appareil", de: "Auf diesem Gerät merken" },
  "token.use": { en: "Use token", fr: "Utiliser le jeton", de: "Token verwenden" },
  "token.forget": { en: "Forget token", fr: "Oublier le jeton", de: "Token vergessen" },
  "token.remembered": { en: "A token is in use and remembered on this device.", fr: "Un jeton est utilisé et mémorisé sur cet appareil.", de: "Ein Token ist in Verwendung und auf diesem Gerät gespeichert." },
  "token.untilClose": { en: "A token is in use until you close this tab.", fr: "Un jeton est utilisé jusqu’à la fermeture de cet onglet.", de: "Ein Token ist in Verwendung, bis Sie diesen Tab schließen." },
  "token.none": { en: "No token: you see public data only.", fr: "Pas de jeton : vous ne voyez que les données publiques.", de: "Kein Token: Sie sehen nur öffentliche Daten." },
  "common.downloadFailed": { en: "Download failed: {reason}", fr: "Échec du téléchargement : {reason}", de: "Download fehlgeschlagen: {reason}" },
});
