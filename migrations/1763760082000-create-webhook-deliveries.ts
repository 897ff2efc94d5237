import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The webhook outbox: a finished run's webhook is inserted in the statement that records the
 * run's outcome (settle-run-outcomes.ts), so a crash after the commit loses no webhook, and
 * delivered from here with retries (webhooks/webhook-dispatcher.ts). `body` is text, not jsonb:
 * the signature covers these exact bytes, and jsonb would reorder keys. A row is deleted once
 * delivered; one that gave up stays, with its last error, for the operator. While an attempt is
 * under way `next_attempt_at` is the attempt's lease: a process killed mid-attempt leaves a row
 * that becomes due again when the lease ends.
 */
export class CreateWebhookDeliveries1763760082000 implements MigrationInterface {
  name = "CreateWebhookDeliveries1763760082000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        delivery_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        run_id uuid NOT NULL,
        url text NOT NULL,
        body text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        gave_up_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE gave_up_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
  }
}
