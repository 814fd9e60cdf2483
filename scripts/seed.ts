// `npm run seed`: loads the sample data into DATASTORE_DB now (the server does it on first start).
import { openDatabase } from "../lib/db/connection";
import { config } from "../lib/config";
import { ensureSampleData } from "../lib/sample-data/seed";

ensureSampleData(openDatabase(config.dbPath));
