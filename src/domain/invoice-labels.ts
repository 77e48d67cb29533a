/**
 * The words printed on an estimate invoice, in both of its languages. The invoice model
 * (./invoice.ts) carries them, so the screen and the server's PDF print the same words; the i18n catalogues
 * (src/i18n/en.ts, ja.ts) include them under `app.invoice.document`. No imports: the catalogues load with the sign-in page.
 */
const en = {
  estimate: 'ESTIMATE #',
  date: 'Date',
  phone: 'Phone',
  email: 'Email',
  address: 'Address',
  abn: 'ABN',
  registration: 'Registration',
  make: 'Make',
  model: 'Model',
  colour: 'Colour',
  body_type: 'Body Type',
  vin: 'VIN',
  scan_date: 'Scan Date/Time',
  assessor: 'Assessor',
  agent: 'Agent',
  client: 'Client',
  sections: {
    pdr: 'PDR',
    conventional: 'Conventional',
    p2p: 'Push to Paint',
    replacement: 'Replace',
    paint: 'Scratch / Paint',
    tyre: 'Tyres',
  },
  panel: 'Panel',
  wheel: 'Wheel',
  /** A wheel's name ({n}: its axle, counted from the front), as `wheelName` reads a device's label. */
  wheels: {
    front_left: 'FRONT LEFT',
    front_right: 'FRONT RIGHT',
    rear_left: 'REAR LEFT',
    rear_right: 'REAR RIGHT',
    axle_left: '{n} LEFT',
    axle_right: '{n} RIGHT',
  },
  description: 'Description',
  repair_fee: 'Repair',
  aluminium_fee: 'Aluminium',
  metallic_fee: 'Metallic',
  pearl_fee: 'Pearl',
  amount: 'Amount',
  dent: 'Dent',
  scratch: 'Scratch',
  categories: {
    light: 'Light',
    medium: 'Medium',
    heavy: 'Heavy',
    severe: 'Severe',
    oversize: 'Oversize',
  },
  scratch_types: {
    spot: 'Spot',
    paint: 'Paint',
    conventional: 'Conventional',
  },
  tyre_choices: {
    repair: 'Repair',
    recheck: 'Recheck Next Visit',
    replace: 'Replace',
  },
  /** A tyre line the client's price list has no price for ({choice}: Repair or Replace), at 0. */
  tyre_no_price: '{choice} (no tyre price in the client’s price list)',
  /** Recheck Next Visit with the wheel's projection ({date}: the day it is estimated to reach the legal minimum). */
  recheck_by: 'Recheck Next Visit (legal minimum estimated around {date})',
  products: 'Products',
  product: 'Product',
  price: 'Price',
  parts: 'Parts',
  comments: 'Comments',
  vehicle_photo: 'Vehicle Photo',
  /** A quote pricing only the new damage says so under the vehicle header ({date}: the previous scan's day). */
  new_damage_only: 'New damage only (compared with the scan of {date})',
  /** The damaged panels such a quote leaves at 0. */
  pre_existing: 'Pre-existing damage (not priced)',
  new_damage_part: 'Only its new damage is priced',
  /** The heading of the totals block. */
  totals_title: 'Totals',
  totals: {
    pdr: 'PDR Total',
    conventional: 'Conventional Total',
    p2p: 'Push to Paint Total',
    replacement: 'Replace Total',
    paint: 'Scratch / Paint Total',
    tyre: 'Tyres Total',
    product: 'Products Total',
    sub_total: 'Sub Total',
    tax: 'GST',
    grand_total: 'Grand Total',
  },
} as const;

/** The shape of one language's words (the English ones' keys, any text). */
type Words<T> = { readonly [K in keyof T]: T[K] extends string ? string : Words<T[K]> };
export type InvoiceLabels = Words<typeof en>;

const ja: InvoiceLabels = {
  estimate: '見積書 #',
  date: '日付',
  phone: '電話番号',
  email: 'メール',
  address: '住所',
  abn: '法人番号',
  registration: '登録番号',
  make: 'メーカー',
  model: 'モデル',
  colour: '車体色',
  body_type: 'ボディタイプ',
  vin: '車台番号',
  scan_date: 'スキャン日時',
  assessor: '査定者',
  agent: 'エージェント',
  client: 'クライアント',
  sections: {
    pdr: 'PDR（デントリペア）',
    conventional: '板金',
    p2p: 'プッシュ・トゥ・ペイント',
    replacement: '交換',
    paint: '傷 / 塗装',
    tyre: 'タイヤ',
  },
  panel: 'パネル',
  wheel: 'タイヤ位置',
  wheels: {
    front_left: '左前輪',
    front_right: '右前輪',
    rear_left: '左後輪',
    rear_right: '右後輪',
    axle_left: '第{n}軸 左',
    axle_right: '第{n}軸 右',
  },
  description: '内容',
  repair_fee: '修理費',
  aluminium_fee: 'アルミ',
  metallic_fee: 'メタリック',
  pearl_fee: 'パール',
  amount: '金額',
  dent: 'デント',
  scratch: '傷',
  // As Quote Generation names them (app.quotes.generation.levels), so the estimate reads like the screen it came from.
  categories: {
    light: '軽度',
    medium: '中程度',
    heavy: '重度',
    severe: '深刻',
    oversize: '特大',
  },
  scratch_types: {
    spot: 'スポット',
    paint: '塗装',
    conventional: '板金',
  },
  tyre_choices: {
    repair: '修理',
    recheck: '次回再点検',
    replace: '交換',
  },
  tyre_no_price: '{choice}（クライアントの価格表にタイヤの価格がありません）',
  recheck_by: '次回再点検（法定最小溝深さ到達見込み {date}、推定）',
  products: '商品',
  product: '商品',
  price: '価格',
  parts: '部品',
  comments: 'コメント',
  vehicle_photo: '車両写真',
  new_damage_only: '新規損傷のみ（{date} のスキャンと比較）',
  pre_existing: '既存の損傷（見積対象外）',
  new_damage_part: '新しい損傷のみ見積対象',
  totals_title: '合計',
  totals: {
    pdr: 'PDR合計',
    conventional: '板金合計',
    p2p: 'プッシュ・トゥ・ペイント合計',
    replacement: '交換合計',
    paint: '傷 / 塗装合計',
    tyre: 'タイヤ合計',
    product: '商品合計',
    sub_total: '小計',
    tax: 'GST',
    grand_total: '総合計',
  },
};

export const INVOICE_LABELS = { en, ja } as const satisfies Record<string, InvoiceLabels>;
export type InvoiceLanguage = keyof typeof INVOICE_LABELS;

/** The document's language: Japanese for 'ja' (or 'ja-JP'), English otherwise. */
export const invoiceLanguage = (language: string | null | undefined): InvoiceLanguage =>
  typeof language === 'string' && /^ja\b/i.test(language) ? 'ja' : 'en';

/**
 * A wheel's label as devices and the tyre tab write it ('FRONT LEFT', '3 RIGHT': `tyreLabel` in ./scan-codes.ts) in
 * `language`'s words ('左前輪', '第3軸 右'); any other text as it is.
 */
export function wheelName(label: string, language: string | null | undefined): string {
  const m = /^\s*(FRONT|REAR|\d+)\s+(LEFT|RIGHT)\s*$/i.exec(label);
  if (!m) return label;
  const words = INVOICE_LABELS[invoiceLanguage(language)].wheels;
  const side = m[2].toLowerCase() as 'left' | 'right';
  const where = m[1].toLowerCase();
  if (/^\d+$/.test(where)) return words[`axle_${side}`].replace('{n}', String(Number(where)));
  return words[`${where as 'front' | 'rear'}_${side}`];
}
