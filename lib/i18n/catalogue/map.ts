// The Map tab: coordinates, layers, the table of cells.
import { defineMessages } from "./define";

export const map = defineMessages({
  "map.withoutCoords": { en: "; {rows} without usable coordinates", fr: " ; {rows} sans coordonnées utilisables", de: "; {rows} ohne verwendbare Koordinaten" },
  "map.firstRows": { en: " (the first {count} rows)", fr: " (les {count} premières lignes)", de: " (die ersten {count} Zeilen)" },
  "map.showing": { en: "Showing {rows}{capped}{without}", fr: "{rows} affichées{capped}{without}", de: "{rows} angezeigt{capped}{without}" },
  "map.inCells": {
    en: { one: "in {count} cell of {size}", other: "in {count} cells of {size}" },
    fr: { one: "dans {count} cellule de {size}", many: "dans {count} de cellules de {size}", other: "dans {count} cellules de {size}" },
    de: { one: "in {count} Zelle von {size}", other: "in {count} Zellen von {size}" },
  },
  "map.sample": { en: "A sample of {rows} of {total} rows, {cells}{without}", fr: "Un échantillon de {rows} lignes sur {total}, {cells}{without}", de: "Eine Stichprobe von {rows} von {total} Zeilen, {cells}{without}" },
  "map.rowsInCells": { en: "{rows} {cells}{without}", fr: "{rows} {cells}{without}", de: "{rows} {cells}{without}" },
  "map.loadingFields": { en: "Loading the fields…", fr: "Chargement des champs…", de: "Felder werden geladen…" },
  "map.nothing": { en: "Nothing to map", fr: "Rien à cartographier", de: "Nichts für die Karte" },
  "map.noNumbers": {
    en: "This resource has no number fields, so no latitude and longitude to place its rows by.",
    fr: "Cette ressource n’a aucun champ numérique, donc ni latitude ni longitude pour placer ses lignes.",
    de: "Diese Ressource hat keine Zahlenfelder, also weder Breiten- noch Längengrad, um ihre Zeilen zu platzieren.",
  },
  "map.twoDifferent": { en: "Choose two different fields", fr: "Choisissez deux champs différents", de: "Wählen Sie zwei verschiedene Felder" },
  "map.noCoordFields": { en: "No latitude and longitude fields found", fr: "Aucun champ de latitude et de longitude trouvé", de: "Keine Felder für Breiten- und Längengrad gefunden" },
  "map.howPlaced": {
    en: "The map places each row by a latitude and a longitude field (found by their names, or by {geo} in the data dictionary). Choose the number fields that hold them:",
    fr: "La carte place chaque ligne selon un champ de latitude et un champ de longitude (trouvés par leur nom, ou par {geo} dans le dictionnaire de données). Choisissez les champs numériques qui les contiennent :",
    de: "Die Karte platziert jede Zeile nach einem Breiten- und einem Längengradfeld (über ihren Namen gefunden oder über {geo} im Datenwörterbuch). Wählen Sie die Zahlenfelder, die sie enthalten:",
  },
  "map.hintCells": {
    en: "Click a cell to zoom in (a cell of one row opens its record); bigger dots hold more rows.",
    fr: "Cliquez sur une cellule pour zoomer (une cellule d’une seule ligne ouvre son enregistrement) ; les points plus gros contiennent plus de lignes.",
    de: "Klicken Sie auf eine Zelle, um hineinzuzoomen (eine Zelle mit einer Zeile öffnet ihren Datensatz); größere Punkte enthalten mehr Zeilen.",
  },
  "map.hintPoints": { en: "Click a point to open its record.", fr: "Cliquez sur un point pour ouvrir son enregistrement.", de: "Klicken Sie auf einen Punkt, um seinen Datensatz zu öffnen." },
  "map.zoomOutTitle": { en: "Remove the latitude and longitude ranges", fr: "Retirer les intervalles de latitude et de longitude", de: "Breiten- und Längengradbereiche entfernen" },
  "map.zoomOut": { en: "Zoom out", fr: "Dézoomer", de: "Herauszoomen" },
  "map.badValues": { en: "Some values are not coordinates", fr: "Certaines valeurs ne sont pas des coordonnées", de: "Einige Werte sind keine Koordinaten" },
  "map.badValuesBody": {
    en: "Latitudes lie between −90 and 90 and longitudes between −180 and 180; rows with other values in “{lat}” or “{lon}” are left off the map.",
    fr: "Les latitudes sont comprises entre −90 et 90 et les longitudes entre −180 et 180 ; les lignes avec d’autres valeurs dans « {lat} » ou « {lon} » sont laissées hors de la carte.",
    de: "Breitengrade liegen zwischen −90 und 90, Längengrade zwischen −180 und 180; Zeilen mit anderen Werten in „{lat}“ oder „{lon}“ fehlen auf der Karte.",
  },
  "map.noCoords": { en: "No matching row has coordinates to map.", fr: "Aucune ligne correspondante n’a de coordonnées à cartographier.", de: "Keine passende Zeile hat Koordinaten für die Karte." },
  "map.noRows": { en: "No rows match.", fr: "Aucune ligne ne correspond.", de: "Keine Zeilen passen." },
  "map.of": { en: "Map of {title}", fr: "Carte de {title}", de: "Karte von {title}" },
  "map.by": { en: " by “{lat}” and “{lon}”.", fr: " selon « {lat} » et « {lon} ».", de: " nach „{lat}“ und „{lon}“." },
  "map.outside": {
    en: { one: "{rows} lies outside this view.", other: "{rows} lie outside this view." },
    fr: { one: "{rows} est hors de cette vue.", other: "{rows} sont hors de cette vue." },
    de: { one: "{rows} liegt außerhalb dieser Ansicht.", other: "{rows} liegen außerhalb dieser Ansicht." },
  },
  "map.showEvery": { en: "Show every point", fr: "Afficher tous les points", de: "Alle Punkte zeigen" },
  "map.fitMost": { en: "Fit the map to most points", fr: "Ajuster la carte à la plupart des points", de: "Karte an die meisten Punkte anpassen" },
  "map.tiles": { en: "Map tiles: {attribution}", fr: "Tuiles de carte : {attribution}", de: "Kartenkacheln: {attribution}" },
});
