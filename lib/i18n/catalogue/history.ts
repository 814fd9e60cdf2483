// A resource's history in the explorer (issue 27): the toolbar's As of, the banner of a view of
// the past, a record's History, and Share's link to this version.
import { defineMessages } from "./define";

export const history = defineMessages({
  "history.asOf.label": { en: "As of", fr: "À la date du", de: "Stand vom" },
  "history.asOf.show": { en: "Show as of", fr: "Afficher à cette date", de: "Stand anzeigen" },
  "history.asOf.current": { en: "Current data", fr: "Données actuelles", de: "Aktuelle Daten" },
  "history.asOf.hint": {
    en: "A date and time, to the second, in your time zone.",
    fr: "Une date et une heure, à la seconde près, dans votre fuseau horaire.",
    de: "Datum und Uhrzeit, auf die Sekunde, in Ihrer Zeitzone.",
  },
  "history.asOf.invalid": { en: "Pick a date and a time.", fr: "Choisissez une date et une heure.", de: "Wählen Sie Datum und Uhrzeit." },
  "history.asOf.none": {
    en: "No history: this resource keeps none.",
    fr: "Pas d’historique : cette ressource n’en conserve pas.",
    de: "Kein Verlauf: diese Ressource bewahrt keinen auf.",
  },
  "history.banner.label": { en: "Past data", fr: "Données passées", de: "Frühere Daten" },
  "history.banner.title": {
    en: "Shown as of {time}, version {version}",
    fr: "Affiché à la date du {time}, version {version}",
    de: "Stand vom {time}, Version {version}",
  },
  "history.banner.titleRaw": { en: "Shown as of {asOf}", fr: "Affiché à la date du {asOf}", de: "Stand vom {asOf}" },
  "history.banner.differ": {
    en: { one: "{count} row differs from the current data.", other: "{count} rows differ from the current data." },
    fr: { one: "{count} ligne diffère des données actuelles.", other: "{count} lignes diffèrent des données actuelles." },
    de: { one: "{count} Zeile weicht von den aktuellen Daten ab.", other: "{count} Zeilen weichen von den aktuellen Daten ab." },
  },
  "history.banner.same": {
    en: "The data has not changed since.",
    fr: "Les données n’ont pas changé depuis.",
    de: "Die Daten haben sich seither nicht geändert.",
  },
  "history.banner.checking": {
    en: "Comparing with the current data…",
    fr: "Comparaison avec les données actuelles…",
    de: "Vergleich mit den aktuellen Daten…",
  },
  "history.banner.readOnly": {
    en: "Records cannot be edited here: edits change the current data.",
    fr: "Les enregistrements ne sont pas modifiables ici : une modification change les données actuelles.",
    de: "Datensätze sind hier nicht bearbeitbar: Änderungen betreffen die aktuellen Daten.",
  },
  "history.banner.current": { en: "Show the current data", fr: "Afficher les données actuelles", de: "Aktuelle Daten anzeigen" },
  "history.tab.unavailable": {
    en: "The {tab} tab cannot show the table as it was",
    fr: "L’onglet {tab} ne peut pas montrer la table telle qu’elle était",
    de: "Der Reiter {tab} kann die Tabelle nicht im früheren Stand zeigen",
  },
  "history.tab.unavailableBody": {
    en: "It reads only the current data, so it shows nothing here rather than today’s figures. The Table tab and the downloads show the table as of then.",
    fr: "Il ne lit que les données actuelles : il n’affiche donc rien ici plutôt que les chiffres d’aujourd’hui. L’onglet Table et les téléchargements montrent la table à cette date.",
    de: "Er liest nur die aktuellen Daten und zeigt hier deshalb nichts statt der heutigen Zahlen. Der Reiter Tabelle und die Downloads zeigen die Tabelle im damaligen Stand.",
  },
  "history.tab.showTable": { en: "Show the table", fr: "Afficher la table", de: "Tabelle anzeigen" },
  "history.current.note": {
    en: "Counted in the current data, not as of the time shown.",
    fr: "Compté dans les données actuelles, pas à la date affichée.",
    de: "In den aktuellen Daten gezählt, nicht zum angezeigten Stand.",
  },
  "history.record.title": { en: "History", fr: "Historique", de: "Verlauf" },
  "history.record.loading": { en: "Loading the history…", fr: "Chargement de l’historique…", de: "Verlauf wird geladen…" },
  "history.record.none": {
    en: "No version of this record is kept.",
    fr: "Aucune version de cet enregistrement n’est conservée.",
    de: "Von diesem Datensatz ist keine Version aufbewahrt.",
  },
  "history.record.failed": {
    en: "The history could not be read: {message}",
    fr: "L’historique n’a pas pu être lu : {message}",
    de: "Der Verlauf konnte nicht gelesen werden: {message}",
  },
  "history.record.version": { en: "Version {version}", fr: "Version {version}", de: "Version {version}" },
  "history.record.by": { en: "by {token}", fr: "par {token}", de: "von {token}" },
  "history.record.byNone": { en: "by an unnamed token", fr: "par un jeton sans nom", de: "von einem unbenannten Token" },
  "history.kind.insert": { en: "Added", fr: "Ajouté", de: "Hinzugefügt" },
  "history.kind.update": { en: "Changed", fr: "Modifié", de: "Geändert" },
  "history.kind.delete": { en: "Deleted", fr: "Supprimé", de: "Gelöscht" },
  "history.record.to": { en: "to", fr: "devient", de: "zu" },
  "history.record.asOf": {
    en: "Show the table as of version {version}",
    fr: "Afficher la table à la version {version}",
    de: "Tabelle im Stand der Version {version} anzeigen",
  },
  "history.record.readOnly": {
    en: "Editing is off while the table is shown as it was: edits change the current data. Show the current data to edit this record.",
    fr: "La modification est désactivée tant que la table est affichée telle qu’elle était : une modification change les données actuelles. Affichez les données actuelles pour modifier cet enregistrement.",
    de: "Bearbeiten ist aus, solange die Tabelle im früheren Stand gezeigt wird: Änderungen betreffen die aktuellen Daten. Zeigen Sie die aktuellen Daten, um diesen Datensatz zu bearbeiten.",
  },
  "history.share.pinned": { en: "Link to this version", fr: "Lien vers cette version", de: "Link auf diese Version" },
  "history.share.copyPinned": { en: "Copy link to this version", fr: "Copier le lien vers cette version", de: "Link auf diese Version kopieren" },
  "history.share.pinnedHint": {
    en: "Opens the table as it is at version {version}, even after it changes.",
    fr: "Ouvre la table telle qu’elle est à la version {version}, même après qu’elle a changé.",
    de: "Öffnet die Tabelle im Stand der Version {version}, auch nachdem sie sich geändert hat.",
  },
  "history.share.pinnedLoading": {
    en: "Finding the current version…",
    fr: "Recherche de la version actuelle…",
    de: "Aktuelle Version wird ermittelt…",
  },
});
