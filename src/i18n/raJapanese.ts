import type { TranslationMessages } from 'ra-core';

/**
 * Japanese translation of react-admin's built-in messages.
 * Mirrors the key structure of `ra-language-english` (react-admin 5.15).
 *
 * Japanese has no grammatical plural: where the English message uses the
 * polyglot `||||` separator, the same text is repeated on both sides unless
 * the two English variants differ in meaning (e.g. "this %{name}" vs.
 * "these %{smart_count} items").
 */
export const raJapanese: TranslationMessages = {
    ra: {
        action: {
            add_filter: 'フィルターを追加',
            add: '追加',
            back: '戻る',
            bulk_actions:
                '%{smart_count}件選択中 |||| %{smart_count}件選択中',
            cancel: 'キャンセル',
            clear_array_input: 'リストをクリア',
            clear_input_value: '値をクリア',
            clone: '複製',
            confirm: '確認',
            create: '作成',
            create_item: '%{item}を作成',
            delete: '削除',
            edit: '編集',
            export: 'エクスポート',
            list: '一覧',
            refresh: '更新',
            remove_filter: 'このフィルターを削除',
            remove_all_filters: 'すべてのフィルターを削除',
            remove: '削除',
            reset: 'リセット',
            save: '保存',
            search: '検索',
            search_columns: '列を検索',
            select_all: 'すべて選択',
            select_all_button: 'すべて選択',
            select_row: 'この行を選択',
            show: '詳細',
            sort: '並べ替え',
            undo: '元に戻す',
            unselect: '選択解除',
            expand: '展開',
            close: '閉じる',
            open_menu: 'メニューを開く',
            close_menu: 'メニューを閉じる',
            update: '更新',
            move_up: '上へ移動',
            move_down: '下へ移動',
            open: '開く',
            toggle_theme: 'ライト/ダークモードを切り替え',
            select_columns: '表示列',
            update_application: 'アプリケーションを再読み込み',
        },
        boolean: {
            true: 'はい',
            false: 'いいえ',
            null: ' ',
        },
        page: {
            create: '%{name}を作成',
            dashboard: 'ダッシュボード',
            edit: '%{name} %{recordRepresentation}',
            error: 'エラーが発生しました',
            list: '%{name}',
            loading: '読み込み中',
            not_found: 'ページが見つかりません',
            show: '%{name} %{recordRepresentation}',
            empty: '%{name}はまだありません。',
            invite: '新しく追加しますか？',
            access_denied: 'アクセスが拒否されました',
            authentication_error: '認証エラー',
        },
        input: {
            file: {
                upload_several:
                    'アップロードするファイルをドロップするか、クリックして選択してください。',
                upload_single:
                    'アップロードするファイルをドロップするか、クリックして選択してください。',
            },
            image: {
                upload_several:
                    'アップロードする画像をドロップするか、クリックして選択してください。',
                upload_single:
                    'アップロードする画像をドロップするか、クリックして選択してください。',
            },
            references: {
                all_missing: '参照データが見つかりません。',
                many_missing:
                    '関連付けられた参照の一部が利用できなくなっています。',
                single_missing:
                    '関連付けられた参照が利用できなくなっています。',
            },
            password: {
                toggle_visible: 'パスワードを隠す',
                toggle_hidden: 'パスワードを表示',
            },
        },
        message: {
            about: 'このアプリについて',
            access_denied: 'このページにアクセスする権限がありません',
            are_you_sure: 'よろしいですか？',
            authentication_error:
                '認証サーバーがエラーを返したため、認証情報を確認できませんでした。',
            auth_error: '認証トークンの検証中にエラーが発生しました。',
            bulk_delete_content:
                'この%{name}を削除してもよろしいですか？ |||| 選択した%{smart_count}件を削除してもよろしいですか？',
            bulk_delete_title:
                '%{name}を削除 |||| %{name}を%{smart_count}件削除',
            bulk_update_content:
                '%{name} %{recordRepresentation}を更新してもよろしいですか？ |||| 選択した%{smart_count}件を更新してもよろしいですか？',
            bulk_update_title:
                '%{name} %{recordRepresentation}を更新 |||| %{name}を%{smart_count}件更新',
            clear_array_input: 'リスト全体をクリアしてもよろしいですか？',
            delete_content: 'この%{name}を削除してもよろしいですか？',
            delete_title: '%{name} %{recordRepresentation}を削除',
            details: '詳細',
            error: 'クライアントエラーが発生したため、リクエストを完了できませんでした。',
            invalid_form: '入力内容に誤りがあります。エラーを確認してください',
            loading: 'お待ちください',
            no: 'いいえ',
            not_found:
                'URLが間違っているか、無効なリンクをたどった可能性があります。',
            select_all_limit_reached:
                '項目が多すぎるため、すべてを選択できません。最初の%{max}件のみ選択されました。',
            unsaved_changes:
                '保存されていない変更があります。変更を破棄してもよろしいですか？',
            yes: 'はい',
            placeholder_data_warning:
                'ネットワークの問題：データを更新できませんでした。',
        },
        navigation: {
            clear_filters: 'フィルターをクリア',
            no_filtered_results:
                '現在のフィルター条件に一致する%{name}はありません。',
            no_results: '%{name}が見つかりません',
            no_more_results:
                'ページ番号%{page}は範囲外です。前のページをお試しください。',
            page_out_of_boundaries: 'ページ番号%{page}は範囲外です',
            page_out_from_end: '最後のページより後には移動できません',
            page_out_from_begin: '1ページより前には移動できません',
            page_range_info: '%{offsetBegin}-%{offsetEnd} / %{total}件',
            partial_page_range_info:
                '%{offsetBegin}-%{offsetEnd} / %{offsetEnd}件以上',
            current_page: '%{page}ページ',
            page: '%{page}ページへ移動',
            first: '最初のページへ移動',
            last: '最後のページへ移動',
            next: '次のページへ移動',
            previous: '前のページへ移動',
            page_rows_per_page: '表示件数:',
            skip_nav: 'コンテンツへスキップ',
        },
        sort: {
            sort_by: '%{field_lower_first}で%{order}に並べ替え',
            ASC: '昇順',
            DESC: '降順',
        },
        auth: {
            auth_check_error: '続行するにはログインしてください',
            user_menu: 'プロフィール',
            username: 'ユーザー名',
            password: 'パスワード',
            email: 'メールアドレス',
            sign_in: 'ログイン',
            sign_in_error: '認証に失敗しました。もう一度お試しください',
            logout: 'ログアウト',
        },
        notification: {
            updated:
                '%{smart_count}件を更新しました |||| %{smart_count}件を更新しました',
            created: '作成しました',
            deleted:
                '%{smart_count}件を削除しました |||| %{smart_count}件を削除しました',
            bad_item: '不正な項目です',
            item_doesnt_exist: '項目が存在しません',
            http_error: 'サーバーとの通信エラー',
            data_provider_error:
                'dataProviderエラー。詳細はコンソールを確認してください。',
            i18n_error: '指定された言語の翻訳を読み込めません',
            canceled: '操作をキャンセルしました',
            logged_out: 'セッションが終了しました。再度ログインしてください。',
            not_authorized: 'このリソースへのアクセス権限がありません。',
            application_update_available: '新しいバージョンが利用可能です。',
            offline: 'ネットワークに接続されていません。データを取得できませんでした。',
        },
        validation: {
            required: '必須項目です',
            minLength: '%{min}文字以上で入力してください',
            maxLength: '%{max}文字以下で入力してください',
            minValue: '%{min}以上の値を入力してください',
            maxValue: '%{max}以下の値を入力してください',
            number: '数値を入力してください',
            email: '有効なメールアドレスを入力してください',
            oneOf: '次のいずれかを入力してください: %{options}',
            regex: '指定された形式（正規表現）に一致させてください: %{pattern}',
            unique: '既に使用されています',
        },
        saved_queries: {
            label: '保存済みクエリ',
            query_name: 'クエリ名',
            new_label: '現在のクエリを保存...',
            new_dialog_title: '現在のクエリに名前を付けて保存',
            remove_label: '保存済みクエリを削除',
            remove_label_with_name: 'クエリ「%{name}」を削除',
            remove_dialog_title: '保存済みクエリを削除しますか？',
            remove_message:
                'この項目を保存済みクエリの一覧から削除してもよろしいですか？',
            help: '一覧を絞り込み、このクエリを保存して後で使用できます',
        },
        guesser: {
            empty: {
                title: '表示するデータがありません',
                message: 'データプロバイダーを確認してください',
            },
        },
        configurable: {
            customize: 'カスタマイズ',
            configureMode: 'このページを設定',
            inspector: {
                title: 'インスペクター',
                content: 'アプリケーションのUI要素にカーソルを合わせると設定できます',
                reset: '設定をリセット',
                hideAll: 'すべて非表示',
                showAll: 'すべて表示',
            },
            Datagrid: {
                title: 'データグリッド',
                unlabeled: 'ラベルなしの列 #%{column}',
            },
            SimpleForm: {
                title: 'フォーム',
                unlabeled: 'ラベルなしの入力 #%{input}',
            },
            SimpleList: {
                title: 'リスト',
                primaryText: 'プライマリテキスト',
                secondaryText: 'セカンダリテキスト',
                tertiaryText: 'ターシャリテキスト',
            },
        },
    },
};
