/**
 * The words of the server's list exports (the scans, quotes and vehicles reports), in both of the product's languages: the
 * export is written in the language of the screen it was asked from (`lang` on the export's query). The i18n
 * catalogues (src/i18n/en.ts, ja.ts) take the scan types and statuses and the quote statuses from here, so a list and
 * its export word a value alike. No imports: the catalogues load with the sign-in page.
 */
export const REPORT_LANGUAGES = ['en', 'ja'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

const en = {
  scan_types: { arch: 'Arch', chasis: 'Chasis', tire: 'Tire' },
  scan_statuses: { metadata: 'Metadata', ready: 'Ready', uploaded: 'Uploaded' },
  quote_statuses: {
    draft: 'Draft',
    sent: 'Sent',
    approved: 'Approved',
    partially_approved: 'Partially approved',
    declined: 'Declined',
    expired: 'Expired',
    revoked: 'Revoked',
  },
  scans: {
    sheet: 'Scans',
    columns: [
      'ID',
      'Scan ID',
      'Date/Time',
      'Registration',
      'Make',
      'Model',
      'Car Color',
      'Body Type',
      'Valuation',
      'Location',
      'Location State',
      'Client',
      'Agent',
      'Type',
      'Status',
      'Dents',
      'Scratches',
      'New Damage',
    ],
  },
  quotes: {
    sheet: 'Quotes',
    columns: [
      'ID',
      'Date/Time',
      'Registration',
      'Type',
      'Agent',
      'Client',
      'State',
      'Currency',
      'PDR',
      'Conventional',
      'Replace / Paint',
      'Push to Paint',
      'Scratch / Paint',
      'Tyres',
      'Products',
      'Sub Total',
      'GST %',
      'GST',
      'Grand Total',
      'Status',
      'Revision',
    ],
  },
  vehicles: {
    sheet: 'Vehicles',
    columns: {
      registration: 'Registration',
      state: 'State',
      make: 'Make',
      model: 'Model',
      vin: 'VIN',
      first_seen: 'First Seen',
      last_seen: 'Last Seen',
    },
  },
};

export type ReportLabels = typeof en;

const ja: ReportLabels = {
  scan_types: { arch: 'アーチ', chasis: 'シャシー', tire: 'タイヤ' },
  scan_statuses: { metadata: 'メタデータ', ready: '準備完了', uploaded: 'アップロード済み' },
  quote_statuses: {
    draft: '下書き',
    sent: '送信済み',
    approved: '承認済み',
    partially_approved: '一部承認',
    declined: '辞退',
    expired: '期限切れ',
    revoked: '取り消し',
  },
  scans: {
    sheet: 'スキャン',
    columns: [
      'ID',
      'スキャンID',
      '日時',
      '登録番号',
      'メーカー',
      'モデル',
      '車体色',
      'ボディタイプ',
      '評価額',
      'ロケーション',
      '所在州',
      'クライアント',
      'エージェント',
      '種別',
      'ステータス',
      'へこみ',
      '傷',
      '新しい損傷',
    ],
  },
  quotes: {
    sheet: '見積',
    columns: [
      'ID',
      '日時',
      '登録番号',
      '種別',
      'エージェント',
      'クライアント',
      '州',
      '通貨',
      'PDR',
      '板金',
      '交換 / 塗装',
      'プッシュ・トゥ・ペイント',
      '傷 / 塗装',
      'タイヤ',
      '商品',
      '小計',
      'GST %',
      'GST',
      '総合計',
      'ステータス',
      '版',
    ],
  },
  vehicles: {
    sheet: '車両',
    columns: {
      registration: '登録番号',
      state: '州',
      make: 'メーカー',
      model: 'モデル',
      vin: 'VIN',
      first_seen: '初回スキャン',
      last_seen: '最終スキャン',
    },
  },
};

export const REPORT_LABELS: Record<ReportLanguage, ReportLabels> = { en, ja };
