// The Tokens page: what a token is limited to (resources, actions), when creating it and in the list.
import { defineMessages } from "./define";

export const tokens = defineMessages({
  "tokenLimits.resources": { en: "Limit to resources", fr: "Limiter à des ressources", de: "Auf Ressourcen beschränken" },
  "tokenLimits.resourcesHint": {
    en: "Leave empty for every resource its scope allows. A limited token reads and writes its resources only, public or private.",
    fr: "Laisser vide pour toutes les ressources que sa portée permet. Un jeton limité ne lit et n’écrit que ses ressources, publiques ou privées.",
    de: "Leer lassen für alle Ressourcen, die sein Bereich erlaubt. Ein beschränktes Token liest und schreibt nur seine Ressourcen, öffentlich oder privat.",
  },
  "tokenLimits.find": { en: "Find a resource", fr: "Chercher une ressource", de: "Ressource suchen" },
  "tokenLimits.add": { en: "Add {name}", fr: "Ajouter {name}", de: "{name} hinzufügen" },
  "tokenLimits.remove": { en: "Remove {name}", fr: "Retirer {name}", de: "{name} entfernen" },
  "tokenLimits.chosen": { en: "Chosen resources", fr: "Ressources choisies", de: "Gewählte Ressourcen" },
  "tokenLimits.noMatch": { en: "No resource matches.", fr: "Aucune ressource ne correspond.", de: "Keine Ressource passt." },
  "tokenLimits.actions": { en: "Limit to actions", fr: "Limiter à des actions", de: "Auf Aktionen beschränken" },
  "tokenLimits.actionsHint": {
    en: "Tick none for every action its scope allows.",
    fr: "N’en cocher aucune pour toutes les actions que sa portée permet.",
    de: "Keine ankreuzen für alle Aktionen, die sein Bereich erlaubt.",
  },
  "tokenLimits.reading": { en: "Reading", fr: "Lecture", de: "Lesen" },
  "tokenLimits.writing": { en: "Writing", fr: "Écriture", de: "Schreiben" },
  "tokenLimits.adminNotLimited": {
    en: "An admin token cannot be limited to resources.",
    fr: "Un jeton d’administration ne peut pas être limité à des ressources.",
    de: "Ein Admin-Token kann nicht auf Ressourcen beschränkt werden.",
  },
  "tokenLimits.column": { en: "Limits", fr: "Limites", de: "Beschränkungen" },
  "tokenLimits.none": { en: "none", fr: "aucune", de: "keine" },
  "tokenLimits.resourceList": { en: "Resources: {names}", fr: "Ressources : {names}", de: "Ressourcen: {names}" },
  "tokenLimits.actionList": { en: "Actions: {names}", fr: "Actions : {names}", de: "Aktionen: {names}" },
});
