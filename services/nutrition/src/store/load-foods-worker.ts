// The food load's thread (load-foods.ts): the extract loaded on a database of the thread's own.
import { threadTask } from "@fit/db";
import { loadFoodsHere } from "./load-foods.ts";

export default threadTask(loadFoodsHere);
