// /api/3/action/{action}: CKAN's versioned path, the same handler as /api/action/{action}.
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "../../../action/[action]/route";

export const dynamic = "force-dynamic";
