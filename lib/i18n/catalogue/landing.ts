// The landing page (the catalog: find, sort, page, search inside every table) and the Resource picker.
import { defineMessages } from "./define";

export const landing = defineMessages({
  "landing.title": { en: "Pick a resource to explore", fr: "Choisissez une ressource à explorer", de: "Wählen Sie eine Ressource zum Erkunden" },
  "landing.intro": {
    en: "Choose a table below (or type its name in the Resource box). You can then search it, filter it, sort it, share the link to what you see, and download the rows.",
    fr: "Choisissez une table ci-dessous (ou tapez son nom dans le champ Ressource). Vous pourrez ensuite la rechercher, la filtrer, la trier, partager le lien de ce que vous voyez et télécharger les lignes.",
    de: "Wählen Sie unten eine Tabelle (oder geben Sie ihren Namen im Feld Ressource ein). Dann können Sie sie durchsuchen, filtern, sortieren, den Link zu Ihrer Ansicht teilen und die Zeilen herunterladen.",
  },
  "landing.listError": {
    en: "The resource list could not be loaded. Try again in a moment.",
    fr: "La liste des ressources n’a pas pu être chargée. Réessayez dans un instant.",
    de: "Die Liste der Ressourcen konnte nicht geladen werden. Versuchen Sie es gleich noch einmal.",
  },
  "landing.loading": { en: "Loading resources…", fr: "Chargement des ressources…", de: "Ressourcen werden geladen…" },
  "landing.empty.title": { en: "There are no resources yet", fr: "Il n’y a encore aucune ressource", de: "Es gibt noch keine Ressourcen" },
  "landing.empty.body": {
    en: "Resources appear here once data is loaded with the API. Private resources need a token to be listed.",
    fr: "Les ressources apparaissent ici une fois les données chargées avec l’API. Les ressources privées ne sont listées qu’avec un jeton.",
    de: "Ressourcen erscheinen hier, sobald Daten über die API geladen sind. Private Ressourcen werden nur mit einem Token aufgelistet.",
  },
  "landing.find": { en: "Find a resource", fr: "Trouver une ressource", de: "Ressource finden" },
  "landing.findHint": {
    en: "Words in a name, description or field",
    fr: "Mots d’un nom, d’une description ou d’un champ",
    de: "Wörter aus Name, Beschreibung oder Feld",
  },
  "landing.sort": { en: "Sort by", fr: "Trier par", de: "Sortieren nach" },
  "landing.sort.name": { en: "Name", fr: "Nom", de: "Name" },
  "landing.sort.modified": { en: "Recently changed", fr: "Modifiées récemment", de: "Zuletzt geändert" },
  "landing.sort.rows": { en: "Most rows", fr: "Le plus de lignes", de: "Meiste Zeilen" },
  "landing.showNoTable": {
    en: "Show resources without a data table",
    fr: "Afficher les ressources sans table de données",
    de: "Ressourcen ohne Datentabelle anzeigen",
  },
  "landing.count": {
    en: { one: "{count} resource", other: "{count} resources" },
    fr: { one: "{count} ressource", other: "{count} ressources" },
    de: { one: "{count} Ressource", other: "{count} Ressourcen" },
  },
  "landing.countMatching": {
    en: { one: "{count} resource matches “{q}”", other: "{count} resources match “{q}”" },
    fr: { one: "{count} ressource correspond à « {q} »", other: "{count} ressources correspondent à « {q} »" },
    de: { one: "{count} Ressource passt zu „{q}“", other: "{count} Ressourcen passen zu „{q}“" },
  },
  "landing.pages": { en: "Pages of resources", fr: "Pages de ressources", de: "Seiten der Ressourcen" },
  "landing.previous": { en: "Previous", fr: "Précédente", de: "Vorherige" },
  "landing.next": { en: "Next", fr: "Suivante", de: "Nächste" },
  "landing.page": { en: "Page {page} of {pages}", fr: "Page {page} sur {pages}", de: "Seite {page} von {pages}" },
  "landing.searchInside": {
    en: "Search inside every table for “{q}”",
    fr: "Chercher « {q} » dans toutes les tables",
    de: "In allen Tabellen nach „{q}“ suchen",
  },
  "landing.backToList": { en: "Back to the list of resources", fr: "Retour à la liste des ressources", de: "Zurück zur Liste der Ressourcen" },
  "landing.inside.heading": { en: "Tables that contain “{q}”", fr: "Tables qui contiennent « {q} »", de: "Tabellen, die „{q}“ enthalten" },
  "landing.inside.loading": { en: "Searching every table…", fr: "Recherche dans toutes les tables…", de: "Alle Tabellen werden durchsucht…" },
  "landing.inside.none": { en: "No table contains “{q}”.", fr: "Aucune table ne contient « {q} ».", de: "Keine Tabelle enthält „{q}“." },
  "landing.inside.error": { en: "The tables could not be searched.", fr: "Les tables n’ont pas pu être parcourues.", de: "Die Tabellen konnten nicht durchsucht werden." },
  "landing.inside.matches": {
    en: { one: "{count} matching row", other: "{count} matching rows" },
    fr: { one: "{count} ligne correspondante", other: "{count} lignes correspondantes" },
    de: { one: "{count} passende Zeile", other: "{count} passende Zeilen" },
  },
  "landing.inside.partial": {
    en: { one: "Time ran out before {count} table was searched.", other: "Time ran out before {count} tables were searched." },
    fr: { one: "Le temps a manqué pour chercher dans {count} table.", other: "Le temps a manqué pour chercher dans {count} tables." },
    de: { one: "Die Zeit reichte nicht, um {count} Tabelle zu durchsuchen.", other: "Die Zeit reichte nicht, um {count} Tabellen zu durchsuchen." },
  },
  "picker.label": { en: "Resource", fr: "Ressource", de: "Ressource" },
  "picker.placeholder": { en: "Type to find a resource", fr: "Tapez pour trouver une ressource", de: "Tippen, um eine Ressource zu finden" },
  "picker.suggestions": { en: "Suggestions", fr: "Suggestions", de: "Vorschläge" },
  "picker.noMatch": { en: "No resource matches “{term}”.", fr: "Aucune ressource ne correspond à « {term} ».", de: "Keine Ressource passt zu „{term}“." },
  "picker.noTable": { en: "No data table", fr: "Pas de table de données", de: "Keine Datentabelle" },
  "picker.rows": {
    en: { one: "{count} row", other: "{count} rows" },
    fr: { one: "{count} ligne", other: "{count} lignes" },
    de: { one: "{count} Zeile", other: "{count} Zeilen" },
  },
});
