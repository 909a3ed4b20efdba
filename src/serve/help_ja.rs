//! Japanese help for every parameter in `/api/schema` (the English is
//! clap's `--help` text). A test in [`super::schema`] fails when a flag has
//! no entry here, so a new flag cannot reach the page without its Japanese.

/// `(system, field, help)`.
const HELP: &[(&str, &str, &str)] = &[
    // multiplier (seed 000, 成功倍率判定)
    ("multiplier", "kind", "判定の種類: ability (能力値判定)、skill (技能判定)、random (無作為判定)。既定: --rate があれば random、--skill-level か --required-level があれば skill、それ以外は ability"),
    ("multiplier", "ability", "基本能力値 A、0..=1000。能力値判定と技能判定に必要"),
    ("multiplier", "supporter", "協力者の能力値: その半分 (切り上げ) を加える。繰り返し指定またはカンマ区切り"),
    ("multiplier", "multiplier", "基本成功倍率 M、任意の整数。既定 5"),
    ("multiplier", "modifier", "成功倍率への修正。繰り返し指定またはカンマ区切りで合計"),
    ("multiplier", "skill_level", "技能レベル S。複数 (繰り返しか 3,2) なら最も低いもの。既定 0 (技能なし)"),
    ("multiplier", "required_level", "要求技能レベル R (1 以上) または \"none\"。既定 1"),
    ("multiplier", "no_guarantee", "能力値判定: 最終成功倍率が 0 以下のとき最低保障成功率を使わず、判定不可能とする"),
    ("multiplier", "rate", "無作為判定: 成功率 (%)、0..=1000"),
    ("multiplier", "co_ability", "共同判定のもう一人のメインの人物: 能力値を半減せずそのまま加える (シード000「メインの人物(能力値を半減しない)を増やしてもかまいません」)。繰り返し可"),
    ("multiplier", "vs_kind", "対抗側: 判定の種類 (既定は --kind と同じ決め方)"),
    ("multiplier", "vs_ability", "対抗側: 基本能力値"),
    ("multiplier", "vs_supporter", "対抗側: 協力者の能力値"),
    ("multiplier", "vs_multiplier", "対抗側: 基本成功倍率 (既定 5)"),
    ("multiplier", "vs_modifier", "対抗側: 成功倍率への修正"),
    ("multiplier", "vs_skill_level", "対抗側: 技能レベル"),
    ("multiplier", "vs_required_level", "対抗側: 要求技能レベル、または \"none\" (既定 1)"),
    ("multiplier", "vs_no_guarantee", "対抗側: 最低保障成功率なし"),
    ("multiplier", "vs_rate", "対抗側: 無作為判定の成功率"),
    ("multiplier", "hundred_is_doubles", "出目 100 (00) をファンブル判定でゾロ目とみなすか"),
    ("multiplier", "perception", "知覚対隠密: こちらが知覚、--vs- 側が隠密。各1回振り、より高い段階の成功で気付く (シードの規定。--perception-rule 参照)"),
    ("multiplier", "perception_needs_success", "知覚対隠密で知覚側も成功を要する (--perception を含む。既定の規則。スクリプト互換のため残す)"),
    ("multiplier", "perception_rule", "知覚対隠密で誰が気付くか: needs-success (より高い段階の成功。シードの文言、既定) または higher-tier (段階の順序どおり: 失敗はファンブルに勝つ)。--perception を含む"),
    ("multiplier", "successes", "継続的な行為判定: 必要成功数、1..=1000"),
    ("multiplier", "attempts", "継続的な行為判定: 試行回数の上限、1..=1000。既定 10"),
    ("multiplier", "degrees", "継続的な行為判定: 効果的成功を 2、決定的成功を 3 と数える"),
    ("multiplier", "side", "2者以上の対抗判定の追加の側。この側のフラグを -- なしの key=value で (例 --side ability=10,multiplier=4、--side rate=40)。繰り返し可、--vs- 側が必要。各側がトップになる確率を p_top に出す"),
    // d20 (seed 001)
    ("d20", "modifier", "ステータス修正値、−50..=50 [既定: 0]"),
    ("d20", "score", "能力値 1..=30。修正値 floor((s − 10)/2) を与える"),
    ("d20", "proficiency", "習熟ボーナス、0..=20 [既定: 0]"),
    ("d20", "level", "レベル 1..=20。習熟ボーナス 2 + floor((L − 1)/4) を与える"),
    ("d20", "bonus", "合計に加える追加の固定ボーナス、−50..=50"),
    ("d20", "dc", "目標値 (DC)、−50..=100。対抗判定でなければ必須"),
    ("d20", "advantage", "有利: 2d20 を振り高い方を使う (--disadvantage と同時なら相殺)"),
    ("d20", "disadvantage", "不利: 2d20 を振り低い方を使う (--advantage と同時なら相殺)"),
    ("d20", "crit_on", "使った出目が N 以上ならクリティカル (BCDice の AT@N)、2..=20 [既定: 20]"),
    ("d20", "fate", "この判定で使えるフェイト・ダイスの数、0..=10"),
    ("d20", "policy", "結果を報告するフェイト・ダイスの使い方 [既定: --fate > 0 なら optimal、それ以外は none]"),
    ("d20", "vs_modifier", "対抗側のステータス修正値 (対抗判定になる)"),
    ("d20", "vs_score", "対抗側の能力値 (対抗判定になる)"),
    ("d20", "vs_proficiency", "対抗側の習熟ボーナス (対抗判定になる)"),
    ("d20", "vs_level", "対抗側のレベル (対抗判定になる)"),
    ("d20", "vs_bonus", "対抗側の追加ボーナス (対抗判定になる)"),
    ("d20", "vs_advantage", "対抗側は有利で振る (対抗判定になる)"),
    ("d20", "vs_disadvantage", "対抗側は不利で振る (対抗判定になる)"),
    ("d20", "tie_rule", "対抗判定の同値を誰が取るか [既定: defender (受動側)]"),
    // keep-highest (seed 002)
    ("keep-highest", "ability", "能力値 (1 以上)。ダイスサイズを決める"),
    ("keep-highest", "dice", "ダイスの数 (1 以上): 1 + 基本技能 + 専門 + 効果"),
    ("keep-highest", "difficulty", "難易度、2..=20。判定に必須、対決では使わない"),
    ("keep-highest", "advantage", "有利。繰り返し可。--disadvantage と混ざれば相殺"),
    ("keep-highest", "disadvantage", "不利。繰り返し可。--advantage と混ざれば相殺"),
    ("keep-highest", "vs_ability", "対決: 受動側の能力値"),
    ("keep-highest", "vs_dice", "対決: 受動側のダイスの数 (既定 1)"),
    ("keep-highest", "vs_advantage", "対決: 受動側が有利。繰り返し可"),
    ("keep-highest", "vs_disadvantage", "対決: 受動側が不利。繰り返し可"),
    ("keep-highest", "vs_cannot_roll", "対決: 受動側は振れない (達成値 0)"),
    ("keep-highest", "tie_rule", "対決: 同値を誰が取るか (シードの規定は途中で切れている)"),
    // levels (seed 003)
    ("levels", "skill", "レベルごとの判定値、レベル1から: 50,30,15"),
    ("levels", "from_brp", "BRP の技能値 s (0..=100) から: [s, s/2, s/5, s/10]。10 未満になった最初のレベルで止める"),
    ("levels", "from_ability", "能力値 a (1 以上) の ×n から: [5a, 4a, 3a, 2a, a]、上限 100"),
    ("levels", "level", "宣言するレベル (1..=レベル数)。既定: 最善のレベル"),
    ("levels", "difficulty", "要求レベル (難易度)、1 以上、既知"),
    ("levels", "prior", "要求レベルが不明: D = 1, 2, … の重み (1,2,1)"),
    ("levels", "critical", "どの成功の出目をクリティカルとするか"),
    ("levels", "vs_skill", "対抗判定: 受動側のレベルごとの判定値"),
    ("levels", "vs_from_brp", "対抗判定: 受動側の技能を BRP の技能値から"),
    ("levels", "vs_from_ability", "対抗判定: 受動側の技能を能力値 (×n) から"),
    ("levels", "vs_level", "対抗判定: 受動側の宣言レベル。既定: 最善の応答 (攻撃側のレベル)"),
    // hit-pool (seed 004)
    ("hit-pool", "pool", "ダイス・プール: 能力値 + 技能 + 修正 (0 以下も可: エッジのロングショットがなければ振れない)"),
    ("hit-pool", "threshold", "基準値: 必要なヒット数。継続テストでは目標。既定 0: 振れれば成功"),
    ("hit-pool", "glitch_rule", "1 の目がいくつでグリッチになるか"),
    ("hit-pool", "limit", "リミット (Shadowrun 5): グリッチの判定の後、上回るヒットを切り捨てる"),
    ("hit-pool", "buy", "振らずにヒットを買う: floor(プール/4) ヒット、グリッチなし"),
    ("hit-pool", "edge", "このテストで使うエッジ値 (1回使用)"),
    ("hit-pool", "edge_use", "エッジの使い方 (既定 push)"),
    ("hit-pool", "explode_glitch", "ダイスが爆発したとき 1 の目をどう数えるか"),
    ("hit-pool", "negate_critical", "negate-glitch がクリティカル・グリッチをどうするか"),
    ("hit-pool", "edge_limit", "エッジで押し上げた振り (push, push-after) に --limit が効くか: ignore (Shadowrun 5「Push the Limit」、既定) または apply (厳密)"),
    ("hit-pool", "tail_eps", "爆発するダイスを打ち切るときに捨てる確率の最大値"),
    ("hit-pool", "helper", "チームワークの協力者のプール (繰り返し可): そのヒット1つごとにダイス1個を加える"),
    ("hit-pool", "team_cap", "協力者が加えるダイスの上限 (リーダーの技能)"),
    ("hit-pool", "vs_pool", "対抗テスト: 防御側のプール"),
    ("hit-pool", "vs_limit", "防御側のリミット"),
    ("hit-pool", "vs_edge", "防御側のエッジ"),
    ("hit-pool", "vs_edge_use", "防御側のエッジの使い方 (既定 push)"),
    ("hit-pool", "vs_helper", "防御側の協力者のプール (繰り返し可): 相手のチーム"),
    ("hit-pool", "vs_team_cap", "防御側の協力者が加えるダイスの上限 (防御側の技能)"),
    ("hit-pool", "tie_rule", "対抗テストの同値を誰が取るか"),
    ("hit-pool", "extended", "継続テスト: ヒットの合計が基準値に達するまで振る"),
    ("hit-pool", "max_rolls", "継続テストの最大回数 (既定: プールの大きさ)"),
    ("hit-pool", "shrink", "継続テスト: 2回目以降、振るたびにダイスを1個減らす (Shadowrun 5)"),
    ("hit-pool", "critical_glitch_ends", "継続テスト: クリティカル・グリッチでテスト全体が失敗"),
    // dice (ダイス表記)
    ("dice", "expr", "BCDice のダイスコマンド: 2D6+1>=7、1D20+5>=15、4D6DL1、5B6>=4、10R6>=5@6、3U6>=10@6、D66。連続ロール: 1D20+5 -> natural==20: 2D8+4; >=15: 1D8+4; 0、(3B6>=4)D6、2D(…)、max(0,1D8-3)。大文字小文字を区別しない"),
    ("dice", "tier", "ハウスルールの段階 NAME:COND[:fail|:success] (繰り返し可、良い順。最初に成り立つものが勝つ): COND は結果 (>=10)、素の出目 (natural>=19)、最大値・最小値 (max==6)、出目の個数 (count(==6)>=2)、名前付きの項 (hope>fear)、ゾロ目 (doubles) を and / or / not で組み合わせる。:fail は失敗として数える段階。最後の NAME だけのものが残りを取る"),
    ("dice", "success_tiers", "p_success で成功と数える段階 (カンマ区切り。既定: 最後以外のすべて)"),
    ("dice", "vs", "対決: 相手の振り。こちらと比べる"),
    ("dice", "tie_rule", "対決: 同値を誰が取るか (既定: 同値のまま、p_tie に出す)"),
    ("dice", "lower_wins", "対決: 低い方が勝つ (下方判定)"),
    ("dice", "push", "プッシュ: 最初の判定がこの段階 (カンマ区切り) なら、--push-dice の出目を1回振り直して判定し直す (イヤーゼロ・エンジン、ドラゴンベイン)"),
    ("dice", "push_dice", "プッシュで振り直すダイス [項の名前:]出目の条件 (繰り返し可): 2..5、<6、base:2..5"),
    ("dice", "outcomes_by", "統計値の値ごとの結果 (繰り返し可): 出目がとる値 (または値の組) ごとに1つの結果を大きい順に。--tier の代わり。width と height (ワンロール・エンジンのセット: --outcomes-by width --outcomes-by height)、count(6)、max、result"),
    ("dice", "game", "BCDice のゲームシステム ID (Cthulhu7th、SwordWorld2.5、DoubleCross など。大文字小文字は区別しない)。EXPR をそのゲームのコマンドとして読む"),
    ("dice", "list_games", "--game に指定できるゲームシステムとそのコマンドを一覧表示する"),
    ("dice", "tail_eps", "爆発するダイス (xR, xU) を打ち切るときに捨てる確率の最大値"),
    ("dice", "until", "複数回の判定: 結果 (または --until-stat) を足し続け、N に達するまで振る。p_done_by、expected_rolls、rolls、tail_mass を出す"),
    ("dice", "rounds", "--until と共に: 最大 K 回まで振る (既定: 振り続けている確率が --tail-eps を下回るまで)"),
    ("dice", "until_stat", "--until と共に: 毎回足すもの: result (既定: 合計、数えるコマンドは成功数)、natural (修正前の出目)、success (成功 1 回につき 1)"),
    ("dice", "until_fail_tier", "--until と共に: 出たらその場で失敗として終わる段階 (--tier の名前、カンマ区切り。例: fumble)"),
    ("dice", "until_success_tier", "--until と共に: 出たらその場で達成として終わる段階 (--tier の名前、カンマ区切り。例: critical)"),
    ("dice", "until_bonus", "--until と共に: 出たらボーナスを足す段階 NAME=+2 (負も可: NAME=-1。繰り返し可)"),
    ("dice", "until_negative", "--until と共に: 0 未満の結果は 0 を足す (zero、既定) か引く (subtract)"),
    ("dice", "vs_until", "競争 (--vs と --until と共に): 相手側の目標値 (既定: 同じ N)"),
];

/// The Japanese help of `field` of `system`.
pub fn help(system: &str, field: &str) -> Option<&'static str> {
    HELP.iter()
        .find(|(s, f, _)| *s == system && *f == field)
        .map(|(_, _, h)| *h)
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_entry_is_stale() {
        for (system, field, _) in super::HELP {
            let s = super::super::schema::system_schema(system).expect(system);
            assert!(
                s.params.iter().any(|p| p.field == *field),
                "help_ja.rs names {system} {field}, which is no flag"
            );
        }
    }
}
