import type { EntityManager } from "typeorm";
import type { ModelPriceRecord } from "../../domain/model-price.js";
import { MODEL_PRICE_SELECT, modelPriceFromRow, type ModelPriceRow } from "./model-price-columns.js";
import { runStatement } from "../run-statement.js";

/** The whole price table (it holds tens of rows), by model name then effective date. Reads only. */
export async function listModelPrices(manager: EntityManager): Promise<ModelPriceRecord[]> {
  const { rows } = await runStatement<ModelPriceRow>(manager, `SELECT ${MODEL_PRICE_SELECT} FROM model_prices ORDER BY model_name, effective_from, id`);
  return rows.map(modelPriceFromRow);
}
