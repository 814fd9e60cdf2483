// The Pivot tab: rows, columns, the value and the cross-table.
import { defineMessages } from "./define";

export const pivot = defineMessages({
  "pivot.fn.count": { en: "Count", fr: "Nombre", de: "Anzahl" },
  "pivot.fn.sum": { en: "Sum", fr: "Somme", de: "Summe" },
  "pivot.fn.avg": { en: "Average", fr: "Moyenne", de: "Durchschnitt" },
  "pivot.fn.min": { en: "Minimum", fr: "Minimum", de: "Minimum" },
  "pivot.fn.max": { en: "Maximum", fr: "Maximum", de: "Maximum" },
  "pivot.eachValue": { en: "each value", fr: "chaque valeur", de: "jeder Wert" },
  "pivot.keyPeriod": { en: "{label} period", fr: "{label} : période", de: "{label}: Zeitraum" },
  "pivot.keyBin": { en: "{label} bin width", fr: "{label} : largeur des classes", de: "{label}: Klassenbreite" },
  "pivot.settings": { en: "Pivot settings", fr: "Réglages du tableau croisé", de: "Einstellungen der Kreuztabelle" },
  "pivot.rows": { en: "Rows", fr: "Lignes", de: "Zeilen" },
  "pivot.secondRow": { en: "Second row field", fr: "Second champ de ligne", de: "Zweites Zeilenfeld" },
  "pivot.columns": { en: "Columns", fr: "Colonnes", de: "Spalten" },
  "pivot.nothing": { en: "Nothing to pivot", fr: "Rien à croiser", de: "Nichts für eine Kreuztabelle" },
  "pivot.noField": { en: "This resource has no field to group by.", fr: "Cette ressource n’a aucun champ par lequel grouper.", de: "Diese Ressource hat kein Feld zum Gruppieren." },
  "pivot.counting": { en: "Counting…", fr: "Comptage…", de: "Wird gezählt…" },
  "pivot.sampled": { en: ", estimated from a sample of about {total} matching rows.", fr: ", estimé à partir d’un échantillon d’environ {total} lignes correspondantes.", de: ", geschätzt aus einer Stichprobe von etwa {total} passenden Zeilen." },
  "pivot.over": { en: ", over {rows}.", fr: ", sur {rows}.", de: ", über {rows}." },
  "pivot.overMatching": { en: ", over {rows} that match the search and filters.", fr: ", sur {rows} correspondant à la recherche et aux filtres.", de: ", über {rows}, die zu Suche und Filtern passen." },
  "pivot.pickCell": { en: "Pick a cell to see its rows in the Table.", fr: "Choisissez une cellule pour voir ses lignes dans la Table.", de: "Wählen Sie eine Zelle, um ihre Zeilen in der Tabelle zu sehen." },
  "pivot.cellHint": { en: "Shows the rows of this cell in the Table.", fr: "Affiche les lignes de cette cellule dans la Table.", de: "Zeigt die Zeilen dieser Zelle in der Tabelle." },
  "pivot.total": { en: "Total", fr: "Total", de: "Summe" },
  "pivot.download": { en: "Download the pivot", fr: "Télécharger le tableau croisé", de: "Kreuztabelle herunterladen" },
});
