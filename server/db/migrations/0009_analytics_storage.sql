-- positions becomes a table partitioned by day (UTC), one partition `positions_pYYYYMMDD` per day
-- (docs/decisions.md "Analytics storage"). The old table is renamed out of the way without its
-- constraints and indexes (their names go to the new table), every day it holds gets a partition,
-- and its rows are copied. The old table then stays as `positions_rollup_backlog`, the rows whose
-- rollups are still to be written: the server's startup backfill (server/analytics/rollupBackfill.ts)
-- deletes them slice by slice in the transaction that adds their rollups, and drops the table once
-- it is empty. An empty old table is dropped here at once.
ALTER TABLE "positions" RENAME TO "positions_rollup_backlog";--> statement-breakpoint
ALTER TABLE "positions_rollup_backlog" DROP CONSTRAINT "positions_site_id_sites_id_fk";--> statement-breakpoint
ALTER TABLE "positions_rollup_backlog" DROP CONSTRAINT "positions_inventory_item_id_inventory_items_id_fk";--> statement-breakpoint
ALTER TABLE "positions_rollup_backlog" DROP CONSTRAINT "positions_inventory_item_id_ts_pk";--> statement-breakpoint
DROP INDEX "positions_floor_ts_idx";--> statement-breakpoint
DROP INDEX "positions_worker_ts_idx";--> statement-breakpoint
DROP INDEX "positions_site_ts_idx";--> statement-breakpoint
CREATE TABLE "positions" (
	"site_id" integer NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"worker_id" integer,
	"floor_id" integer,
	"zone_id" integer,
	"lat" double precision NOT NULL,
	"long" double precision NOT NULL,
	"is_online" boolean NOT NULL,
	"is_active" boolean NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "positions_inventory_item_id_ts_pk" PRIMARY KEY("inventory_item_id","ts")
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "positions_floor_ts_idx" ON "positions" USING btree ("floor_id","ts");--> statement-breakpoint
CREATE INDEX "positions_worker_ts_idx" ON "positions" USING btree ("worker_id","ts");--> statement-breakpoint
CREATE INDEX "positions_site_ts_idx" ON "positions" USING btree ("site_id","ts");--> statement-breakpoint
DO $$
DECLARE
	day date;
BEGIN
	FOR day IN SELECT DISTINCT ("ts" AT TIME ZONE 'UTC')::date FROM "positions_rollup_backlog" LOOP
		EXECUTE format(
			'CREATE TABLE %I PARTITION OF "positions" FOR VALUES FROM (%L) TO (%L)',
			'positions_p' || to_char(day, 'YYYYMMDD'),
			to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00',
			to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00'
		);
	END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO "positions" ("site_id", "inventory_item_id", "worker_id", "floor_id", "zone_id", "lat", "long", "is_online", "is_active", "ts", "received_at")
	SELECT "site_id", "inventory_item_id", "worker_id", "floor_id", "zone_id", "lat", "long", "is_online", "is_active", "ts", "received_at" FROM "positions_rollup_backlog";--> statement-breakpoint
DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM "positions_rollup_backlog") THEN
		DROP TABLE "positions_rollup_backlog";
	END IF;
END
$$;--> statement-breakpoint
CREATE TABLE "presence_cell_minutes" (
	"site_id" integer NOT NULL,
	"floor_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"cell_x" integer NOT NULL,
	"cell_y" integer NOT NULL,
	"worker_seconds" integer NOT NULL,
	CONSTRAINT "presence_cell_minutes_floor_id_bucket_cell_x_cell_y_pk" PRIMARY KEY("floor_id","bucket","cell_x","cell_y")
);
--> statement-breakpoint
CREATE TABLE "presence_minutes" (
	"site_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"floor_id" integer NOT NULL,
	"zone_id" integer,
	"bucket" timestamp with time zone NOT NULL,
	"seconds" integer NOT NULL,
	CONSTRAINT "presence_minutes_key" UNIQUE NULLS NOT DISTINCT("worker_id","bucket","floor_id","zone_id")
);
--> statement-breakpoint
ALTER TABLE "floors" ADD COLUMN "cell_size_m" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "presence_cell_minutes" ADD CONSTRAINT "presence_cell_minutes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence_cell_minutes" ADD CONSTRAINT "presence_cell_minutes_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence_minutes" ADD CONSTRAINT "presence_minutes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence_minutes" ADD CONSTRAINT "presence_minutes_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence_minutes" ADD CONSTRAINT "presence_minutes_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence_minutes" ADD CONSTRAINT "presence_minutes_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "presence_minutes_site_bucket_idx" ON "presence_minutes" USING btree ("site_id","bucket");--> statement-breakpoint
CREATE INDEX "presence_minutes_zone_bucket_idx" ON "presence_minutes" USING btree ("zone_id","bucket");--> statement-breakpoint
-- The rollups are updated in place at every ingest (seconds += 1): room left in each page lets
-- PostgreSQL update them without new index entries (HOT), their counters being in no index.
ALTER TABLE "presence_cell_minutes" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "presence_minutes" SET (fillfactor = 70);
