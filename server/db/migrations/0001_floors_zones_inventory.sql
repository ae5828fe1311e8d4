CREATE TABLE "floors" (
	"id" serial PRIMARY KEY NOT NULL,
	"building_id" integer NOT NULL,
	"name" text NOT NULL,
	"altitude" numeric NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"blueprint_file" text,
	"blueprint_mime" text,
	"blueprint_width" integer,
	"blueprint_height" integer,
	"a_lat" double precision NOT NULL,
	"a_long" double precision NOT NULL,
	"b_lat" double precision NOT NULL,
	"b_long" double precision NOT NULL,
	"c_lat" double precision NOT NULL,
	"c_long" double precision NOT NULL,
	"d_lat" double precision NOT NULL,
	"d_long" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inventory_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"network_id" integer,
	"wnt_inventory_id" text NOT NULL,
	"type" text NOT NULL,
	"floor_id" integer,
	"zone_id" integer,
	"lat" double precision,
	"long" double precision,
	"is_online" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"is_approved" boolean DEFAULT false NOT NULL,
	"worker_id" integer,
	"assigned_at" timestamp with time zone,
	"last_seen" timestamp with time zone,
	"last_active_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_items_type_check" CHECK ("inventory_items"."type" in ('helmet', 'anchor', 'sink'))
);
--> statement-breakpoint
CREATE TABLE "zones" (
	"id" serial PRIMARY KEY NOT NULL,
	"floor_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"coordinates" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "zones_kind_check" CHECK ("zones"."kind" in ('work', 'restricted', 'assembly'))
);
--> statement-breakpoint
ALTER TABLE "floors" ADD CONSTRAINT "floors_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "floors_building_idx" ON "floors" USING btree ("building_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_items_site_wnt_unique" ON "inventory_items" USING btree ("site_id","wnt_inventory_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_items_worker_unique" ON "inventory_items" USING btree ("worker_id") WHERE "inventory_items"."worker_id" is not null;--> statement-breakpoint
CREATE INDEX "inventory_items_floor_idx" ON "inventory_items" USING btree ("floor_id");--> statement-breakpoint
CREATE INDEX "inventory_items_network_idx" ON "inventory_items" USING btree ("network_id");--> statement-breakpoint
CREATE UNIQUE INDEX "zones_floor_name_unique" ON "zones" USING btree ("floor_id",lower("name"));