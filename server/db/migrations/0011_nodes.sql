-- node_diagnostics becomes a table partitioned by UTC day like positions (migration 0009), one
-- partition `node_diagnostics_pYYYYMMDD` per day, kept as long as positions (POSITIONS_RETENTION_DAYS).
-- Each report now names its inventory item (the key, instead of site and node id), the floor the
-- node was on, and the neighbours it heard. Existing reports are copied with the item and floor of
-- their node; reports of a node no longer in the inventory are not kept.
ALTER TABLE "node_diagnostics" RENAME TO "node_diagnostics_old";--> statement-breakpoint
ALTER TABLE "node_diagnostics_old" DROP CONSTRAINT "node_diagnostics_site_id_sites_id_fk";--> statement-breakpoint
ALTER TABLE "node_diagnostics_old" DROP CONSTRAINT "node_diagnostics_site_id_node_id_ts_pk";--> statement-breakpoint
CREATE TABLE "node_diagnostics" (
	"site_id" integer NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"floor_id" integer,
	"network_id" integer,
	"node_id" text NOT NULL,
	"type" text NOT NULL,
	"buffer_usage" double precision,
	"link_quality" double precision,
	"battery_voltage" double precision,
	"displacement_error" double precision,
	"lat" double precision,
	"long" double precision,
	"neighbors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	CONSTRAINT "node_diagnostics_inventory_item_id_ts_pk" PRIMARY KEY("inventory_item_id","ts")
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
ALTER TABLE "node_diagnostics" ADD CONSTRAINT "node_diagnostics_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_diagnostics" ADD CONSTRAINT "node_diagnostics_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "node_diagnostics_floor_ts_idx" ON "node_diagnostics" USING btree ("floor_id","ts");--> statement-breakpoint
CREATE INDEX "node_diagnostics_site_ts_idx" ON "node_diagnostics" USING btree ("site_id","ts");--> statement-breakpoint
DO $$
DECLARE
	day date;
BEGIN
	FOR day IN SELECT DISTINCT ("ts" AT TIME ZONE 'UTC')::date FROM "node_diagnostics_old" LOOP
		EXECUTE format(
			'CREATE TABLE %I PARTITION OF "node_diagnostics" FOR VALUES FROM (%L) TO (%L)',
			'node_diagnostics_p' || to_char(day, 'YYYYMMDD'),
			to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00',
			to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00'
		);
	END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO "node_diagnostics" ("site_id", "inventory_item_id", "floor_id", "network_id", "node_id", "type", "buffer_usage", "link_quality", "battery_voltage", "displacement_error", "lat", "long", "ts")
	SELECT o."site_id", i."id", i."floor_id", o."network_id", o."node_id", o."type", o."buffer_usage", o."link_quality", o."battery_voltage", o."displacement_error", o."lat", o."long", o."ts"
	FROM "node_diagnostics_old" o
	JOIN "inventory_items" i ON i."site_id" = o."site_id" AND i."wnt_inventory_id" = o."node_id" AND i."type" IN ('anchor', 'sink')
	ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TABLE "node_diagnostics_old";--> statement-breakpoint
CREATE TABLE "site_maintenance_settings" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"anchor_moved_threshold_m" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "site_maintenance_settings" ADD CONSTRAINT "site_maintenance_settings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_maintenance_settings" ADD CONSTRAINT "site_maintenance_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "displaced_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_type_check";--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_type_check" CHECK ("incidents"."type" in ('sos', 'fall', 'noMotion', 'restrictedZone', 'reEntry', 'anchorMoved'));
