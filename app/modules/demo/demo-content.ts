/** The demo pitch's content, for its project (`seed.server.ts`) and its deck (`demo-deck.server.ts`) alike. */
export const DEMO_CONTENT = {
  title: "Harbor Cold Chain",
  oneLiner: "Solar-powered vaccine fridges with live temperature alerts for rural clinics.",
  summary:
    "One in four vaccine doses in low-resource clinics is lost to broken cold chains. Harbor ships a solar fridge with a cellular sensor that texts the nurse before a batch spoils, and a dashboard that lets health ministries see every fridge in the district.",
  metrics: [
    { label: "Clinics live", value: "140" },
    { label: "MRR", value: "$48k" },
    { label: "Spoilage cut", value: "81%" },
    { label: "Growth MoM", value: "22%" },
  ],
  problems: [
    "25% of vaccines spoil before they reach a patient in off-grid clinics.",
    "Nurses find out a fridge failed only when the batch is already lost.",
    "Ministries buy equipment blind: no data on which fridges actually work.",
  ],
  solutions: [
    "A solar fridge that holds 2–8 °C for five days without sun.",
    "SMS alerts to the nurse on duty within 60 seconds of a temperature drift.",
    "A district dashboard with uptime, stock levels and spoilage per clinic.",
  ],
  tiers: [
    { range_label: "Angel", range_min: 5_000, range_max: 25_000, perks: ["Quarterly investor update", "Name on the Recognition Wall"] },
    { range_label: "Syndicate", range_min: 25_000, range_max: 100_000, perks: ["Monthly update call", "Early access to pilot data"] },
    { range_label: "Lead", range_min: 250_000, range_max: 1_000_000, perks: ["Board observer seat", "Co-design of the next district rollout"] },
    { range_label: "Strategic", range_min: 1_000_000, range_max: null, perks: ["Distribution partnership", "Joint ministry pilots"] },
  ],
} as const;
