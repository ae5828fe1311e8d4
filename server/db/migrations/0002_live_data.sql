CREATE TABLE "crew_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"crew_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"assigned_at" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crew_managers" (
	"crew_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "crew_managers_crew_id_user_id_pk" PRIMARY KEY("crew_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "crews" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "helmet_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"worker_id" integer,
	"type" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_diagnostics" (
	"site_id" integer NOT NULL,
	"network_id" integer,
	"node_id" text NOT NULL,
	"type" text NOT NULL,
	"buffer_usage" double precision,
	"link_quality" double precision,
	"battery_voltage" double precision,
	"displacement_error" double precision,
	"lat" double precision,
	"long" double precision,
	"ts" timestamp with time zone NOT NULL,
	CONSTRAINT "node_diagnostics_site_id_node_id_ts_pk" PRIMARY KEY("site_id","node_id","ts")
);
--> statement-breakpoint
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
);
--> statement-breakpoint
CREATE TABLE "subcontractors" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workers" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"worker_tag_id" text,
	"contact_number" text,
	"helmet_color" text,
	"picture_file" text,
	"worker_role_id" integer,
	"subcontractor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workshift_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"workshift_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"assigned_at" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workshifts" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"non_working_days" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"breaks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zone_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"worker_id" integer,
	"floor_id" integer,
	"zone_id" integer NOT NULL,
	"kind" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	CONSTRAINT "zone_events_kind_check" CHECK ("zone_events"."kind" in ('enter', 'exit'))
);
--> statement-breakpoint
ALTER TABLE "crew_assignments" ADD CONSTRAINT "crew_assignments_crew_id_crews_id_fk" FOREIGN KEY ("crew_id") REFERENCES "public"."crews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_assignments" ADD CONSTRAINT "crew_assignments_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_managers" ADD CONSTRAINT "crew_managers_crew_id_crews_id_fk" FOREIGN KEY ("crew_id") REFERENCES "public"."crews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_managers" ADD CONSTRAINT "crew_managers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crews" ADD CONSTRAINT "crews_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "helmet_events" ADD CONSTRAINT "helmet_events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "helmet_events" ADD CONSTRAINT "helmet_events_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_diagnostics" ADD CONSTRAINT "node_diagnostics_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subcontractors" ADD CONSTRAINT "subcontractors_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_roles" ADD CONSTRAINT "worker_roles_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workers" ADD CONSTRAINT "workers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workers" ADD CONSTRAINT "workers_worker_role_id_worker_roles_id_fk" FOREIGN KEY ("worker_role_id") REFERENCES "public"."worker_roles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workers" ADD CONSTRAINT "workers_subcontractor_id_subcontractors_id_fk" FOREIGN KEY ("subcontractor_id") REFERENCES "public"."subcontractors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshift_assignments" ADD CONSTRAINT "workshift_assignments_workshift_id_workshifts_id_fk" FOREIGN KEY ("workshift_id") REFERENCES "public"."workshifts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshift_assignments" ADD CONSTRAINT "workshift_assignments_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshifts" ADD CONSTRAINT "workshifts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zone_events" ADD CONSTRAINT "zone_events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zone_events" ADD CONSTRAINT "zone_events_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crew_assignments_worker_idx" ON "crew_assignments" USING btree ("worker_id","assigned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "crews_site_name_unique" ON "crews" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
CREATE UNIQUE INDEX "device_tokens_hash_unique" ON "device_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "helmet_events_unique" ON "helmet_events" USING btree ("inventory_item_id","type","ts");--> statement-breakpoint
CREATE INDEX "helmet_events_site_ts_idx" ON "helmet_events" USING btree ("site_id","ts");--> statement-breakpoint
CREATE INDEX "positions_floor_ts_idx" ON "positions" USING btree ("floor_id","ts");--> statement-breakpoint
CREATE INDEX "positions_worker_ts_idx" ON "positions" USING btree ("worker_id","ts");--> statement-breakpoint
CREATE INDEX "positions_site_ts_idx" ON "positions" USING btree ("site_id","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "subcontractors_site_name_unique" ON "subcontractors" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
CREATE UNIQUE INDEX "worker_roles_site_name_unique" ON "worker_roles" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
CREATE INDEX "workers_site_idx" ON "workers" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "workers_site_name_idx" ON "workers" USING btree ("site_id","name");--> statement-breakpoint
CREATE INDEX "workshift_assignments_worker_idx" ON "workshift_assignments" USING btree ("worker_id","assigned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workshifts_site_name_unique" ON "workshifts" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
CREATE UNIQUE INDEX "zone_events_unique" ON "zone_events" USING btree ("inventory_item_id","zone_id","kind","ts");--> statement-breakpoint
CREATE INDEX "zone_events_zone_ts_idx" ON "zone_events" USING btree ("zone_id","ts");--> statement-breakpoint
CREATE INDEX "zone_events_worker_ts_idx" ON "zone_events" USING btree ("worker_id","ts");--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE set null ON UPDATE no action;