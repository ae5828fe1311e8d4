/**
 * The installation checklist of an electrical room (issue 19 "Electrical RM installation"): a
 * fixed order, from the supply to the evidence, so a room's progress reads the same everywhere.
 * The server refuses any other key; the console shows each step's words in the user's language.
 */

export const ELECTRICAL_ROOM_STEPS = [
  'powerSupply',
  'ups',
  'mounting',
  'gatewayPowered',
  'uplink',
  'sinksMounted',
  'sinksReporting',
  'labelsAndPhotos',
] as const;

export type ElectricalRoomStep = (typeof ELECTRICAL_ROOM_STEPS)[number];

export interface StepWords {
  title: string;
  /** What "done" means, so two engineers tick it for the same reason. */
  detail: string;
}

export const ELECTRICAL_ROOM_STEP_WORDS: Readonly<
  Record<'en' | 'ar', Record<ElectricalRoomStep, StepWords>>
> = {
  en: {
    powerSupply: {
      title: 'Power supply and breaker',
      detail: 'A dedicated breaker feeds the sockets of the gateway and sinks, labelled on the panel.',
    },
    ups: {
      title: 'UPS',
      detail: 'The UPS is installed, charged and keeps the gateway up when the mains is cut.',
    },
    mounting: {
      title: 'Mounting',
      detail: 'The enclosure or rack is fixed to the wall and the cables are tied and protected.',
    },
    gatewayPowered: {
      title: 'Gateway powered',
      detail: 'The gateway is on the UPS output and its lights show power.',
    },
    uplink: {
      title: 'Uplink / Internet',
      detail: 'The gateway reaches the server over its uplink (wired, or the cellular router).',
    },
    sinksMounted: {
      title: 'Sinks mounted',
      detail: "Every sink of the room is mounted and on the room's supply.",
    },
    sinksReporting: {
      title: 'Sinks reporting',
      detail: 'Every sink of the room reports to the server and shows as connected here.',
    },
    labelsAndPhotos: {
      title: 'Labels and photos',
      detail: 'Devices and cables are labelled, and photos of the finished room are filed.',
    },
  },
  ar: {
    powerSupply: {
      title: 'مصدر الطاقة والقاطع',
      detail: 'قاطع مخصص يغذي مقابس البوابة والمستقبلات، ومُعلَّم على اللوحة.',
    },
    ups: {
      title: 'مزود الطاقة غير المنقطعة (UPS)',
      detail: 'تم تركيب مزود الطاقة وشحنه، ويبقي البوابة تعمل عند انقطاع الكهرباء.',
    },
    mounting: { title: 'التثبيت', detail: 'الخزانة أو الحامل مثبت على الجدار والكابلات مربوطة ومحمية.' },
    gatewayPowered: {
      title: 'تشغيل البوابة',
      detail: 'البوابة موصولة بمخرج مزود الطاقة وأضواؤها تدل على التشغيل.',
    },
    uplink: {
      title: 'الاتصال بالشبكة / الإنترنت',
      detail: 'تصل البوابة إلى الخادم عبر وصلتها (سلكية أو عبر موجه الشبكة الخلوية).',
    },
    sinksMounted: { title: 'تركيب المستقبلات', detail: 'كل مستقبلات الغرفة مركبة وموصولة بتغذية الغرفة.' },
    sinksReporting: {
      title: 'إرسال المستقبلات للتقارير',
      detail: 'كل مستقبلات الغرفة ترسل تقاريرها إلى الخادم وتظهر هنا متصلة.',
    },
    labelsAndPhotos: {
      title: 'الملصقات والصور',
      detail: 'الأجهزة والكابلات مُعلَّمة، وصور الغرفة بعد الانتهاء محفوظة.',
    },
  },
};

export function isElectricalRoomStep(value: unknown): value is ElectricalRoomStep {
  return typeof value === 'string' && (ELECTRICAL_ROOM_STEPS as readonly string[]).includes(value);
}

/** The words of a step in a language; any language but Arabic reads English. */
export function stepWords(step: ElectricalRoomStep, language: string): StepWords {
  return ELECTRICAL_ROOM_STEP_WORDS[language.startsWith('ar') ? 'ar' : 'en'][step];
}

export interface ChecklistProgress {
  done: number;
  total: number;
  /** Whole percent, rounded down so a room shows 100 % only when every step is done. */
  percent: number;
}

/** How far a room is: the checklist's steps among `completed` (unknown keys do not count). */
export function checklistProgress(completed: Iterable<string>): ChecklistProgress {
  const done = new Set([...completed].filter(isElectricalRoomStep)).size;
  const total = ELECTRICAL_ROOM_STEPS.length;
  return { done, total, percent: Math.floor((done * 100) / total) };
}
