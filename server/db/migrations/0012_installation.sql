CREATE TABLE "anchor_approvals" (
	"id" serial PRIMARY KEY NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"action" text NOT NULL,
	"floor_id" integer,
	"planning_anchor_id" integer,
	"lat" double precision,
	"long" double precision,
	"distance_m" double precision,
	"link_quality" double precision,
	"override_reason" text,
	"user_id" integer,
	"ts" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "anchor_approvals_action_check" CHECK ("anchor_approvals"."action" in ('approve', 'unapprove'))
);
--> statement-breakpoint
CREATE TABLE "electrical_room_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"room_id" integer NOT NULL,
	"inventory_item_id" integer,
	"network_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "electrical_room_devices_one_device_check" CHECK (("electrical_room_devices"."inventory_item_id" is null) <> ("electrical_room_devices"."network_id" is null))
);
--> statement-breakpoint
CREATE TABLE "electrical_room_steps" (
	"room_id" integer NOT NULL,
	"step" text NOT NULL,
	"completed_by" integer,
	"completed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "electrical_room_steps_room_id_step_pk" PRIMARY KEY("room_id","step")
);
--> statement-breakpoint
CREATE TABLE "electrical_rooms" (
	"id" serial PRIMARY KEY NOT NULL,
	"building_id" integer NOT NULL,
	"floor_id" integer,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grid_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"floor_id" integer NOT NULL,
	"name" text NOT NULL,
	"axes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "planning_anchors" (
	"id" serial PRIMARY KEY NOT NULL,
	"floor_id" integer NOT NULL,
	"anchor_id" text NOT NULL,
	"lat" double precision NOT NULL,
	"long" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_radio_settings" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "walls" (
	"id" serial PRIMARY KEY NOT NULL,
	"floor_id" integer NOT NULL,
	"name" text NOT NULL,
	"material" text NOT NULL,
	"points" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "walls_material_check" CHECK ("walls"."material" in ('drywall', 'brick', 'concrete', 'glass', 'metal'))
);
--> statement-breakpoint
CREATE TABLE "work_permits" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"floor_id" integer NOT NULL,
	"number" text NOT NULL,
	"type" text NOT NULL,
	"area" jsonb NOT NULL,
	"holder_crew_id" integer,
	"holder_subcontractor_id" integer,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_permits_type_check" CHECK ("work_permits"."type" in ('hotWork', 'workAtHeight', 'confinedSpace', 'electricalIsolation', 'excavation', 'other')),
	CONSTRAINT "work_permits_status_check" CHECK ("work_permits"."status" in ('draft', 'active', 'suspended', 'closed')),
	CONSTRAINT "work_permits_one_holder_check" CHECK (("work_permits"."holder_crew_id" is null) <> ("work_permits"."holder_subcontractor_id" is null)),
	CONSTRAINT "work_permits_validity_check" CHECK ("work_permits"."valid_to" > "work_permits"."valid_from")
);
--> statement-breakpoint
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_type_check";--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "work_permit_id" integer;--> statement-breakpoint
ALTER TABLE "anchor_approvals" ADD CONSTRAINT "anchor_approvals_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "anchor_approvals" ADD CONSTRAINT "anchor_approvals_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "anchor_approvals" ADD CONSTRAINT "anchor_approvals_planning_anchor_id_planning_anchors_id_fk" FOREIGN KEY ("planning_anchor_id") REFERENCES "public"."planning_anchors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "anchor_approvals" ADD CONSTRAINT "anchor_approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "electrical_room_devices" ADD CONSTRAINT "electrical_room_devices_room_id_electrical_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."electrical_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "electrical_room_devices" ADD CONSTRAINT "electrical_room_devices_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "electrical_room_devices" ADD CONSTRAINT "electrical_room_devices_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "electrical_room_steps" ADD CONSTRAINT "electrical_room_steps_room_id_electrical_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."electrical_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "electrical_room_steps" ADD CONSTRAINT "electrical_room_steps_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "electrical_rooms" ADD CONSTRAINT "electrical_rooms_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "electrical_rooms" ADD CONSTRAINT "electrical_rooms_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grid_fields" ADD CONSTRAINT "grid_fields_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planning_anchors" ADD CONSTRAINT "planning_anchors_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_radio_settings" ADD CONSTRAINT "site_radio_settings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_radio_settings" ADD CONSTRAINT "site_radio_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "walls" ADD CONSTRAINT "walls_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_permits" ADD CONSTRAINT "work_permits_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_permits" ADD CONSTRAINT "work_permits_floor_id_floors_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."floors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_permits" ADD CONSTRAINT "work_permits_holder_crew_id_crews_id_fk" FOREIGN KEY ("holder_crew_id") REFERENCES "public"."crews"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_permits" ADD CONSTRAINT "work_permits_holder_subcontractor_id_subcontractors_id_fk" FOREIGN KEY ("holder_subcontractor_id") REFERENCES "public"."subcontractors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_permits" ADD CONSTRAINT "work_permits_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "anchor_approvals_item_idx" ON "anchor_approvals" USING btree ("inventory_item_id","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "electrical_room_devices_item_unique" ON "electrical_room_devices" USING btree ("inventory_item_id") WHERE "electrical_room_devices"."inventory_item_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "electrical_room_devices_network_unique" ON "electrical_room_devices" USING btree ("network_id") WHERE "electrical_room_devices"."network_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "electrical_rooms_building_name_unique" ON "electrical_rooms" USING btree ("building_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "grid_fields_floor_name_unique" ON "grid_fields" USING btree ("floor_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "planning_anchors_floor_anchor_unique" ON "planning_anchors" USING btree ("floor_id",lower("anchor_id"));--> statement-breakpoint
CREATE UNIQUE INDEX "walls_floor_name_unique" ON "walls" USING btree ("floor_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "work_permits_site_number_unique" ON "work_permits" USING btree ("site_id",lower("number"));--> statement-breakpoint
CREATE INDEX "work_permits_floor_idx" ON "work_permits" USING btree ("floor_id");--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_work_permit_id_work_permits_id_fk" FOREIGN KEY ("work_permit_id") REFERENCES "public"."work_permits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_type_check" CHECK ("incidents"."type" in ('sos', 'fall', 'noMotion', 'restrictedZone', 'reEntry', 'anchorMoved', 'permitAreaEntry'));