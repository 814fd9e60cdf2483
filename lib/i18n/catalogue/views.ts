// Saved views, sharing and embeds: save, the list, the Views menu, Share, the embed frame.
import { defineMessages } from "./define";

export const views = defineMessages({
  "savedView.opening": { en: "Opening “{name}”…", fr: "Ouverture de « {name} »…", de: "„{name}“ wird geöffnet…" },
  "savedView.openingUnnamed": { en: "Opening the saved view…", fr: "Ouverture de la vue enregistrée…", de: "Gespeicherte Ansicht wird geöffnet…" },
  "savedView.loading": { en: "Loading the saved view…", fr: "Chargement de la vue enregistrée…", de: "Gespeicherte Ansicht wird geladen…" },
  "views.button": { en: "Views", fr: "Vues", de: "Ansichten" },
  "views.buttonCount": { en: "Views ({count})", fr: "Vues ({count})", de: "Ansichten ({count})" },
  "views.listFailed": { en: "The saved views could not be listed.", fr: "Les vues enregistrées n’ont pas pu être listées.", de: "Die gespeicherten Ansichten konnten nicht aufgelistet werden." },
  "views.loading": { en: "Loading the saved views…", fr: "Chargement des vues enregistrées…", de: "Gespeicherte Ansichten werden geladen…" },
  "views.loadingShort": { en: "Loading saved views…", fr: "Chargement des vues enregistrées…", de: "Gespeicherte Ansichten werden geladen…" },
  "views.noneHere": { en: "No saved views of this resource yet.", fr: "Aucune vue enregistrée pour cette ressource.", de: "Noch keine gespeicherten Ansichten dieser Ressource." },
  "views.saved": { en: "Saved views", fr: "Vues enregistrées", de: "Gespeicherte Ansichten" },
  "views.private": { en: "private", fr: "privée", de: "privat" },
  "views.noneYet": {
    en: "None yet. Open a resource, search and filter it, then choose Save view.",
    fr: "Aucune pour l’instant. Ouvrez une ressource, recherchez et filtrez, puis choisissez Enregistrer la vue.",
    de: "Noch keine. Öffnen Sie eine Ressource, suchen und filtern Sie, und wählen Sie dann Ansicht speichern.",
  },
  "views.current": { en: "Saved view:", fr: "Vue enregistrée :", de: "Gespeicherte Ansicht:" },
  "views.missingFields": {
    en: "This view named fields the resource no longer has ({fields}): it opens without them.",
    fr: "Cette vue nommait des champs que la ressource n’a plus ({fields}) : elle s’ouvre sans eux.",
    de: "Diese Ansicht nannte Felder, die die Ressource nicht mehr hat ({fields}): Sie öffnet sich ohne sie.",
  },
  "views.toolbar": { en: "Saved views and sharing", fr: "Vues enregistrées et partage", de: "Gespeicherte Ansichten und Teilen" },
  "save.button": { en: "Save view", fr: "Enregistrer la vue", de: "Ansicht speichern" },
  "save.savedAs": { en: "Saved as", fr: "Enregistrée sous", de: "Gespeichert als" },
  "save.intro": {
    en: "Saves what is on screen (search, filters, sort, columns and the tab with its settings) under a name, with a short address to share.",
    fr: "Enregistre ce qui est à l’écran (recherche, filtres, tri, colonnes et l’onglet avec ses réglages) sous un nom, avec une adresse courte à partager.",
    de: "Speichert, was auf dem Bildschirm ist (Suche, Filter, Sortierung, Spalten und den Reiter mit seinen Einstellungen), unter einem Namen, mit einer kurzen Adresse zum Teilen.",
  },
  "save.name": { en: "Name", fr: "Nom", de: "Name" },
  "save.description": { en: "Description", fr: "Description", de: "Beschreibung" },
  "save.private": { en: "Private (only this token and admins see it)", fr: "Privée (seuls ce jeton et les administrateurs la voient)", de: "Privat (nur dieses Token und Admins sehen sie)" },
  "save.notSaved": { en: "Not saved", fr: "Non enregistrée", de: "Nicht gespeichert" },
  "share.button": { en: "Share", fr: "Partager", de: "Teilen" },
  "share.link": { en: "Link", fr: "Lien", de: "Link" },
  "share.embed": { en: "Embed code", fr: "Code d’intégration", de: "Einbettungscode" },
  "share.copyEmbed": { en: "Copy embed code", fr: "Copier le code d’intégration", de: "Einbettungscode kopieren" },
  "share.embedOrigins": {
    en: "Only the sites the server allows (DATASTORE_EMBED_ORIGINS) may show it.",
    fr: "Seuls les sites autorisés par le serveur (DATASTORE_EMBED_ORIGINS) peuvent l’afficher.",
    de: "Nur die vom Server erlaubten Websites (DATASTORE_EMBED_ORIGINS) dürfen sie anzeigen.",
  },
  "embed.open": { en: "Open in Datastore Explorer", fr: "Ouvrir dans Datastore Explorer", de: "In Datastore Explorer öffnen" },
  "embed.noResource": {
    en: "This embed names no resource: its address needs a resource_id.",
    fr: "Cette intégration ne désigne aucune ressource : son adresse doit contenir un resource_id.",
    de: "Diese Einbettung nennt keine Ressource: Ihre Adresse braucht eine resource_id.",
  },
});
