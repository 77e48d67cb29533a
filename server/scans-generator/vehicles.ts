import type { Rng } from './random';

/** Cars common on Australian roads, with the body type and a used-car valuation range (AUD). */
export const VEHICLES = [
  { make: 'Toyota', model: 'Corolla', body_type: 'Hatchback', value: [14_000, 32_000] },
  { make: 'Toyota', model: 'RAV4', body_type: 'SUV', value: [24_000, 52_000] },
  { make: 'Toyota', model: 'HiLux', body_type: 'Ute', value: [25_000, 65_000] },
  { make: 'Toyota', model: 'Camry', body_type: 'Sedan', value: [15_000, 42_000] },
  { make: 'Mazda', model: 'CX-5', body_type: 'SUV', value: [20_000, 48_000] },
  { make: 'Mazda', model: '3', body_type: 'Hatchback', value: [13_000, 35_000] },
  { make: 'Ford', model: 'Ranger', body_type: 'Ute', value: [28_000, 72_000] },
  { make: 'Ford', model: 'Everest', body_type: 'SUV', value: [35_000, 75_000] },
  { make: 'Hyundai', model: 'i30', body_type: 'Hatchback', value: [11_000, 33_000] },
  { make: 'Hyundai', model: 'Tucson', body_type: 'SUV', value: [20_000, 45_000] },
  { make: 'Kia', model: 'Sportage', body_type: 'SUV', value: [19_000, 46_000] },
  { make: 'Kia', model: 'Cerato', body_type: 'Sedan', value: [12_000, 30_000] },
  { make: 'Tesla', model: 'Model 3', body_type: 'Sedan', value: [35_000, 65_000] },
  { make: 'Tesla', model: 'Model Y', body_type: 'SUV', value: [45_000, 75_000] },
  { make: 'Mitsubishi', model: 'Triton', body_type: 'Ute', value: [18_000, 50_000] },
  { make: 'Subaru', model: 'Forester', body_type: 'SUV', value: [18_000, 45_000] },
  { make: 'Volkswagen', model: 'Golf', body_type: 'Hatchback', value: [15_000, 45_000] },
  { make: 'Isuzu', model: 'D-Max', body_type: 'Ute', value: [25_000, 60_000] },
  { make: 'MG', model: 'ZS', body_type: 'SUV', value: [14_000, 28_000] },
  { make: 'Nissan', model: 'X-Trail', body_type: 'SUV', value: [17_000, 48_000] },
  { make: 'BYD', model: 'Atto 3', body_type: 'SUV', value: [30_000, 48_000] },
] as const;

/** Paint colours by name, with the hex the generated images use. */
export const COLOURS = [
  { name: 'White', hex: '#eeeeea', weight: 30 },
  { name: 'Silver', hex: '#b9bfc5', weight: 14 },
  { name: 'Grey', hex: '#6c727a', weight: 16 },
  { name: 'Black', hex: '#1d1e22', weight: 12 },
  { name: 'Blue', hex: '#2b4f91', weight: 10 },
  { name: 'Red', hex: '#a4252c', weight: 9 },
  { name: 'Green', hex: '#3d6f48', weight: 4 },
  { name: 'Bronze', hex: '#8d6b49', weight: 5 },
] as const;
export type Colour = (typeof COLOURS)[number];
export const colourHex = (name: string | null | undefined) => COLOURS.find((c) => c.name === name)?.hex ?? '#9aa3ab';

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const letter = (rng: Rng) => LETTERS[rng.int(0, LETTERS.length - 1)];
const digit = (rng: Rng) => String(rng.int(0, 9));
/** Each state's current passenger plate pattern: 9 a digit, A a letter, other characters as they are. */
const PLATE_PATTERNS: Record<string, string> = {
  VIC: '9AA9AA',
  NSW: 'AA99AA',
  QLD: '999AA9',
  SA: 'S999AAA',
  WA: '9AAA999',
  TAS: 'A99AA',
  ACT: 'YAA99A',
  NT: 'CA99AA',
};

/** An Australian-style registration for the state (e.g. VIC 1AB2CD, NSW AB12CD). */
export function registration(rng: Rng, state: string) {
  const pattern = PLATE_PATTERNS[state] ?? PLATE_PATTERNS.VIC;
  return [...pattern].map((c) => (c === '9' ? digit(rng) : c === 'A' ? letter(rng) : c)).join('');
}

export interface Vehicle {
  licensePlate: string;
  make: string;
  model: string;
  carColor: string;
  body_type: string;
  valuation: number;
  location_state: string;
}

export function vehicle(rng: Rng, state: string): Vehicle {
  const v = rng.pick(VEHICLES);
  const colour = rng.weighted(COLOURS.map((c) => [c, c.weight] as const));
  return {
    licensePlate: registration(rng, state),
    make: v.make,
    model: v.model,
    carColor: colour.name,
    body_type: v.body_type,
    valuation: Math.round(rng.int(v.value[0], v.value[1]) / 250) * 250,
    location_state: state,
  };
}

/** A row of the built-in plate look-up's registry (the `registrations` table): the vehicle as the registry knows it. */
export interface RegistryEntry {
  number: string;
  state: string;
  make: string;
  model: string;
  colour: string;
  body_type: string;
  valuation: number;
}

export const registryEntry = (v: Vehicle): RegistryEntry => ({
  number: v.licensePlate,
  state: v.location_state,
  make: v.make,
  model: v.model,
  colour: v.carColor,
  body_type: v.body_type,
  valuation: v.valuation,
});

/**
 * Registered vehicles no scan has seen yet, `perState` in every state: the demo registry holds them beside the scanned
 * ones, so a plate typed on a fresh scan can be found too.
 */
export function registryVehicles(rng: Rng, perState: number): RegistryEntry[] {
  return Object.keys(PLATE_PATTERNS).flatMap((state) => Array.from({ length: perState }, () => registryEntry(vehicle(rng, state))));
}
