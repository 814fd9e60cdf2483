// Saved views, sharing and embeds: save, the list, the Views menu, Share, the embed frame.
import { defineMessages } from "./define";

export const views = defineMessages({
  "savedView.opening": { en: "Opening “{name}”…", fr: "Ouverture de « {name} »…", de: "„{name}“ wird geöffnet…" },
  "savedView.openingUnnamed": { en: "Opening the saved view…", fr: "Ouverture de la vue enregistrée…", de: "Gespeicherte Ansicht wird geöffnet…" },
  "savedView.loading": { en: "Loading the saved view…", fr: "Chargement de la vue enregistrée…", de: "Gespeicherte Ansicht wird geladen…" },
});
