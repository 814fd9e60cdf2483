// Publishing: uploading a file, editing a resource's details and dictionary, deleting it.
import { defineMessages } from "./define";

export const publish = defineMessages({
});
