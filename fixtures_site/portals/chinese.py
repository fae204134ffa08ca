"""东岚大学 (Donglan University): a Chinese-language university portal.

Server-rendered pages with a client-rendered notice board, many routes with
Chinese path segments (linked both as raw UTF-8 and percent-encoded; the server
sees them decoded), generic "了解更多" / "更多" anchors whose card heading
carries the clue, navigation labels without clues (校园生活 → 在校生活 → 公寓)
and wording that avoids the query's words (公寓 / 宿舍区 for 住宿, 收费标准 for
学费, 资助 for 奖学金). PDFs carry English/pinyin text (the PDF helper is
Latin-1 only). Unknown paths are real 404s.
"""

from __future__ import annotations

import json
from urllib.parse import quote

from fixtures_site.common import Portal, Request, Response, html, pdf_response, text
from fixtures_site.portals._shared_b import esc, paras

SITE = "东岚大学"

NAV: list[tuple[str, str]] = [
    ("首页", "/"),
    ("学校概况", "/概况/"),
    ("招生", "/招生/"),
    ("国际交流", "/国际/"),
    ("校园生活", "/校园生活/"),
    ("服务指南", "/服务/"),
    ("新闻", "/新闻/"),
]

FOOTER: list[tuple[str, str]] = [
    ("联系我们", "/概况/联系我们"),
    ("教职工名录", "/概况/教职工名录"),
    ("隐私政策", "/privacy"),
]

CSS = """
body { margin: 0; font-family: "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; color: #222; }
header { background: #7a1020; color: #fff; padding: .8rem 2rem; }
header a { color: #fff; text-decoration: none; margin-right: 1.2rem; }
.brand { font-size: 1.4rem; font-weight: bold; display: block; margin-bottom: .4rem; }
main { max-width: 960px; margin: 0 auto; padding: 1rem 2rem 3rem; }
.crumbs { color: #666; font-size: .9rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 1rem; }
.card { border: 1px solid #ddd; padding: 1rem; border-radius: 6px; }
footer { background: #333; color: #ddd; padding: 1.5rem 2rem; }
footer a { color: #ddd; margin-right: 1rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .3rem .6rem; }
"""

# The notice board is rendered by this script from inline JSON.
NOTICE_JS = """
(function () {
  var box = document.getElementById("notices");
  if (!box) { return; }
  var data = JSON.parse(document.getElementById("notice-data").textContent);
  var h = document.createElement("h2");
  h.textContent = "通知公告";
  box.appendChild(h);
  var ul = document.createElement("ul");
  data.forEach(function (n) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = n.href;
    a.textContent = n.title;
    li.appendChild(a);
    li.appendChild(document.createTextNode(" " + n.date));
    ul.appendChild(li);
  });
  box.appendChild(ul);
})();
"""


def enc(path: str) -> str:
    """Percent-encode a path the way many CMSes write their hrefs."""
    return quote(path, safe="/")


def card(title: str, body: str, href: str, link: str = "了解更多") -> str:
    return (
        f'<div class="card"><h3>{esc(title)}</h3><p>{esc(body)}</p>'
        f'<a href="{esc(href)}">{esc(link)}</a></div>'
    )


def cards(heading: str, items: list[str]) -> str:
    return f'<section><h2>{esc(heading)}</h2><div class="cards">{"".join(items)}</div></section>'


def section(heading: str, texts: list[str]) -> str:
    return f"<section><h2>{esc(heading)}</h2>{paras(texts)}</section>"


def link_list(heading: str, links: list[tuple[str, str]]) -> str:
    items = "".join(f'<li><a href="{esc(h)}">{esc(t)}</a></li>' for t, h in links)
    return f"<section><h2>{esc(heading)}</h2><ul>{items}</ul></section>"


def table(heading: str, head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{esc(c)}</th>" for c in head)
    trs = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<section><h2>{esc(heading)}</h2><table><tr>{th}</tr>{trs}</table></section>"


def layout(title: str, crumbs: list[tuple[str, str]], body: str, extra: str = "") -> str:
    nav = "".join(f'<a href="{esc(h)}">{esc(t)}</a>' for t, h in NAV)
    foot = "".join(f'<a href="{esc(h)}">{esc(t)}</a>' for t, h in FOOTER)
    trail = " &gt; ".join(
        ['<a href="/">首页</a>', *(f'<a href="{esc(h)}">{esc(t)}</a>' for t, h in crumbs)]
    )
    full_title = SITE if title == SITE else f"{title} - {SITE}"
    return f"""<!doctype html>
<html lang="zh-CN">
<head><meta charset="utf-8"><title>{esc(full_title)}</title><style>{CSS}</style></head>
<body>
<header><a class="brand" href="/">{SITE} Donglan University</a><nav aria-label="主导航">{nav}</nav></header>
<main>
<p class="crumbs">当前位置：{trail}</p>
<h1>{esc(title)}</h1>
{body}
</main>
<footer><nav aria-label="页脚">{foot}</nav>
<p>东岚大学 版权所有 · 地址：东岚市滨湖区学府路88号 · 邮编 215400 · 电话 0512-6800 0000</p></footer>
{extra}
</body></html>
"""


# --- news --------------------------------------------------------------------

NEWS: list[tuple[str, str, list[str]]] = [
    (
        "我校举行2027届毕业典礼",
        "2027-06-26",
        [
            "6月26日上午，东岚大学2027届毕业典礼在体育馆隆重举行，四千余名本科生和研究生参加典礼。",
            "校长在致辞中勉励毕业生保持好奇心，在各自岗位上为社会作出贡献。毕业生代表回顾了在校学习和生活的点滴。",
            "典礼结束后，各学院分别举行学位授予仪式。",
        ],
    ),
    (
        "滨湖校区新建学生公寓主体结顶",
        "2027-05-18",
        [
            "5月18日，滨湖校区新建学生公寓项目主体结构顺利结顶，预计2028年秋季投入使用。",
            "项目建成后将新增床位两千余个，进一步改善学生居住条件。后勤管理处表示，施工期间将尽量减少对周边宿舍区的影响。",
        ],
    ),
    (
        "我校学生在全国大学生机器人大赛中获一等奖",
        "2027-05-06",
        [
            "在第二十六届全国大学生机器人大赛中，我校机械工程学院代表队获得一等奖。",
            "参赛学生表示，学校实验室全天开放为备赛提供了很大帮助。",
        ],
    ),
    (
        "学校召开本科教学工作会议",
        "2027-04-20",
        [
            "会议总结了过去一年的本科教学工作，部署了新一轮专业建设任务。",
            "会议强调要落实学分制改革，完善课程评价体系，同时做好学费、助学金等学生资助政策的宣传解读工作。",
        ],
    ),
    (
        "国际文化节吸引三十余国留学生参加",
        "2027-04-12",
        [
            "第十届东岚大学国际文化节在中心广场举行，来自三十余个国家和地区的留学生展示了本国的美食、音乐和传统服饰。",
            "国际交流处负责人介绍，目前在校留学生已超过一千二百人。",
        ],
    ),
    (
        "图书馆举办“世界读书日”系列活动",
        "2027-04-23",
        [
            "围绕世界读书日，图书馆举办了真人图书馆、古籍修复体验和好书推荐等系列活动。",
            "活动期间，图书馆向读者赠送了纪念书签两千余枚。",
        ],
    ),
]


def news_path(i: int) -> str:
    return f"/新闻/2027/{i + 1:03d}"


# --- pages -------------------------------------------------------------------

HOUSING_FACT = "本科生四人间每年1200元"
FEES_FACT = "工科类专业每生每学年5800元"
SCHOLARSHIP_FACT = "一等奖每人每年30000元"
LIBRARY_FACT = "周一至周日 7:30-22:30"
GRAD_FACT = "2026年10月8日至10月25日"
INTL_HOUSING_FACT = "留学生公寓单人间每天80元"

NOTICES = [
    {"title": "滨湖校区新建学生公寓主体结顶", "date": "2027-05-18", "href": enc(news_path(1))},
    {"title": "2027年招生信息汇总", "date": "2027-06-01", "href": enc("/招生/")},
    {"title": "校园网络维护公告", "date": "2027-05-28", "href": "/服务/网络"},
]

HOME = layout(
    SITE,
    [],
    section(
        "学校简介",
        [
            "东岚大学创建于1952年，是一所以工科为主、理工文管协调发展的综合性大学。学校现有滨湖、东湖两个校区，占地三千余亩，设有十八个学院，在校本科生两万余人、研究生九千余人。",
            "学校坚持立德树人，注重实践教学，与国内外一百余所高校和三百余家企业建立了合作关系。",
        ],
    )
    + cards(
        "快速入口",
        [
            card("本科招生", "招生计划、录取规则与收费标准。", "/招生/本科"),
            card("来华留学", "面向国际学生的学位项目与资助政策。", enc("/国际/来华留学")),
            card("图书馆", "馆藏资源、数据库与入馆须知。", "/图书馆/", "更多"),
        ],
    )
    + link_list("学校要闻", [(t, news_path(i)) for i, (t, _, _) in enumerate(NEWS[:3])])
    + '<p><a href="/新闻/">更多</a></p>'
    + '<section id="notices"></section>',
    extra=(
        f'<script type="application/json" id="notice-data">{json.dumps(NOTICES, ensure_ascii=False)}</script>'
        f"<script>{NOTICE_JS}</script>"
    ),
)

PAGES: dict[str, str] = {
    "/": HOME,
    "/概况/": layout(
        "学校概况",
        [("学校概况", "/概况/")],
        section(
            "历史沿革",
            [
                "东岚大学前身为1952年创办的东岚工业专科学校，1983年更名为东岚工学院，2001年与东岚师范专科学校合并组建东岚大学。",
                "七十余年来，学校培养了二十余万名毕业生，他们活跃在国家建设的各个领域。",
            ],
        )
        + section(
            "办学规模",
            [
                "学校设有十八个学院，开设本科专业七十六个，拥有博士学位授权一级学科八个、硕士学位授权一级学科二十六个。",
                "学校现有教职工三千二百余人，其中专任教师两千一百余人。",
            ],
        )
        + link_list(
            "相关链接", [("教职工名录", "/概况/教职工名录"), ("联系我们", "/概况/联系我们")]
        ),
    ),
    "/概况/教职工名录": layout(
        "教职工名录",
        [("学校概况", "/概况/"), ("教职工名录", "/概况/教职工名录")],
        table(
            "部门联系人",
            ["姓名", "部门", "职务", "电话"],
            [
                ["王建国", "校长办公室", "主任", "0512-6800 0001"],
                ["李淑华", "招生办公室", "主任", "0512-6800 0101"],
                ["陈志远", "研究生院", "招生科科长", "0512-6800 0201"],
                ["张敏", "国际交流处", "处长", "0512-6800 0301"],
                ["刘洋", "后勤管理处", "公寓管理科科长", "0512-6800 0401"],
                ["赵丽", "图书馆", "读者服务部主任", "0512-6800 0501"],
                ["孙强", "财务处", "收费科科长", "0512-6800 0601"],
            ],
        )
        + section("说明", ["如需联系其他部门，请拨打学校总机 0512-6800 0000 转接。"]),
    ),
    "/概况/联系我们": layout(
        "联系我们",
        [("学校概况", "/概况/"), ("联系我们", "/概况/联系我们")],
        section(
            "联系方式",
            [
                "滨湖校区地址：东岚市滨湖区学府路88号。东湖校区地址：东岚市东湖区湖光路16号。",
                "学校总机：0512-6800 0000。办公时间：工作日上午8:30-11:30，下午2:00-5:30。",
            ],
        ),
    ),
    "/招生/": layout(
        "招生",
        [("招生", "/招生/")],
        section(
            "欢迎报考东岚大学",
            [
                "东岚大学面向全国招收本科生，并招收硕士、博士研究生。学校坚持公平、公正、公开的招生原则，接受社会监督。",
            ],
        )
        + cards(
            "招生类别",
            [
                card("本科招生", "招生章程、分省计划、历年分数线及相关费用。", "/招生/本科"),
                card("研究生招生", "硕士、博士研究生招生简章与报名安排。", enc("/招生/研究生")),
                card("港澳台招生", "面向港澳台地区学生的招生政策。", "/招生/港澳台"),
            ],
        ),
    ),
    "/招生/本科": layout(
        "本科招生",
        [("招生", "/招生/"), ("本科招生", "/招生/本科")],
        section(
            "2027年本科招生章程（摘要）",
            [
                "2027年我校计划招收本科生五千二百名，招生计划分省分专业编制，以各省级招生考试机构公布的为准。",
                "录取时，学校按照考生志愿和成绩从高到低择优录取，不设专业级差。新生入学后，按国家规定进行复查。",
                "学校执行国家和省有关收费政策，各专业收费情况见收费标准。家庭经济困难的新生可通过“绿色通道”先办理入学手续。",
            ],
        )
        + link_list(
            "招生信息",
            [("收费标准", "/招生/本科/收费标准"), ("历年录取分数线", "/招生/本科/分数线")],
        ),
    ),
    "/招生/本科/收费标准": layout(
        "2027级本科专业收费标准",
        [("招生", "/招生/"), ("本科招生", "/招生/本科"), ("收费标准", "/招生/本科/收费标准")],
        section(
            "收费说明",
            [
                "根据省发展改革委、省财政厅、省教育厅有关文件规定，我校2027级本科新生收费标准如下：",
                FEES_FACT
                + "，理科类专业每生每学年5500元，文科类专业每生每学年5000元，艺术类专业每生每学年9800元。",
                "学生公寓费用另行收取，详见后勤管理处公告。所有费用均在每学年开学时缴纳，可通过校园统一支付平台在线缴费。",
            ],
        )
        + table(
            "各类专业收费一览",
            ["专业类别", "每学年（元）"],
            [["工科类", "5800"], ["理科类", "5500"], ["文科类", "5000"], ["艺术类", "9800"]],
        )
        + link_list(
            "附件", [("Tuition fee schedule 2027 (PDF)", "/files/tuition-fee-schedule-2027.pdf")]
        ),
    ),
    "/招生/本科/分数线": layout(
        "历年录取分数线",
        [("招生", "/招生/"), ("本科招生", "/招生/本科"), ("历年录取分数线", "/招生/本科/分数线")],
        table(
            "2026年部分省份录取最低分",
            ["省份", "物理类", "历史类"],
            [
                ["江苏", "612", "598"],
                ["浙江", "625", "-"],
                ["安徽", "588", "579"],
                ["山东", "590", "-"],
            ],
        )
        + section("说明", ["以上分数仅供参考，具体以各省级招生考试机构公布的信息为准。"]),
    ),
    "/招生/研究生": layout(
        "2027年硕士研究生招生简章",
        [("招生", "/招生/"), ("研究生招生", "/招生/研究生")],
        section(
            "网上报名",
            [
                f"2027年硕士研究生网上报名时间为{GRAD_FACT}（每天9:00-22:00），逾期不再补报。",
                "考生须登录全国研究生招生信息网进行报名，并按要求完成网上确认。",
            ],
        )
        + section(
            "招生规模",
            [
                "我校2027年计划招收硕士研究生三千名，其中全日制学术学位一千二百名，专业学位一千八百名。",
                "研究生学费标准及奖助政策详见研究生院网站。",
            ],
        ),
    ),
    "/招生/港澳台": layout(
        "港澳台招生",
        [("招生", "/招生/"), ("港澳台招生", "/招生/港澳台")],
        section(
            "招生政策",
            [
                "我校通过全国联招、港澳台侨联考和保送等方式招收港澳台地区学生，具体计划以当年公布为准。",
            ],
        ),
    ),
    "/国际/": layout(
        "国际交流",
        [("国际交流", "/国际/")],
        section(
            "国际合作概况",
            [
                "学校与三十个国家和地区的一百余所高校建立了合作关系，每年派出学生一千余人次赴海外交流学习。",
            ],
        )
        + cards(
            "项目",
            [
                card("来华留学", "学位生、语言生与短期项目。", enc("/国际/来华留学")),
                card("出国交流", "交换生、双学位与暑期项目。", "/国际/出国交流", "更多"),
            ],
        ),
    ),
    "/国际/来华留学": layout(
        "来华留学",
        [("国际交流", "/国际/"), ("来华留学", "/国际/来华留学")],
        section(
            "Study at Donglan University · 欢迎来东岚大学学习",
            [
                "东岚大学欢迎世界各国学生来校攻读学士、硕士和博士学位，或参加汉语进修和短期项目。目前在校国际学生一千二百余人，来自七十多个国家。",
                "学校为国际学生提供中英文授课项目、汉语课程以及入学指导、签证办理等服务。",
            ],
        )
        + link_list(
            "国际学生服务",
            [
                ("申请指南", "/国际/来华留学/申请"),
                ("资助", enc("/国际/来华留学/奖学金")),
                ("留学生公寓", "/国际/来华留学/公寓"),
            ],
        ),
    ),
    "/国际/来华留学/申请": layout(
        "申请指南",
        [
            ("国际交流", "/国际/"),
            ("来华留学", "/国际/来华留学"),
            ("申请指南", "/国际/来华留学/申请"),
        ],
        section(
            "申请流程",
            [
                "申请人须在线提交申请表、护照首页、最高学历证明和成绩单、两封推荐信。",
                "本科项目申请截止日期为每年5月31日，研究生项目为每年4月30日。录取通知书和签证申请表将于7月寄出。",
            ],
        ),
    ),
    "/国际/来华留学/奖学金": layout(
        "东岚大学国际学生奖学金",
        [("国际交流", "/国际/"), ("来华留学", "/国际/来华留学"), ("资助", "/国际/来华留学/奖学金")],
        section(
            "资助标准",
            [
                f"东岚大学国际学生奖学金分为三个等级：{SCHOLARSHIP_FACT}，二等奖每人每年20000元，三等奖每人每年10000元。",
                "奖励对象为在我校攻读学位的全日制国际学生，新生根据入学申请材料评定，在校生根据上一学年学业成绩评定。",
            ],
        )
        + section(
            "申请方式",
            [
                "新生在提交入学申请时一并勾选申请；在校生每年9月通过国际学生管理系统提交申请。",
                "获奖学生名单于每年10月公示。",
            ],
        )
        + link_list(
            "附件",
            [
                (
                    "International Student Scholarship 2027 (PDF)",
                    "/files/international-scholarship-2027.pdf",
                )
            ],
        ),
    ),
    "/国际/来华留学/公寓": layout(
        "留学生公寓 International Student Residence",
        [
            ("国际交流", "/国际/"),
            ("来华留学", "/国际/来华留学"),
            ("留学生公寓", "/国际/来华留学/公寓"),
        ],
        section(
            "住宿条件",
            [
                "留学生宿舍位于滨湖校区西侧，共有单人间和双人间两种房型，房间内配有空调、独立卫生间和书桌。",
                f"{INTL_HOUSING_FACT}，双人间每人每天50元，按学期预付。",
                "Single rooms cost CNY 80 per night; double rooms CNY 50 per person per night, paid by semester.",
            ],
        )
        + section(
            "入住办理",
            [
                "新生请于报到日凭录取通知书和护照到留学生公寓服务台办理入住手续。",
            ],
        )
        + link_list(
            "附件",
            [
                (
                    "International student residence rates (PDF)",
                    "/files/international-residence-rates-2027.pdf",
                )
            ],
        ),
    ),
    "/国际/出国交流": layout(
        "出国交流",
        [("国际交流", "/国际/"), ("出国交流", "/国际/出国交流")],
        section(
            "项目介绍",
            [
                "学校每年选派本科生参加校际交换、双学位和暑期项目。交换期间学生免缴对方学校学费，只需向我校缴纳学费。",
            ],
        ),
    ),
    "/校园生活/": layout(
        "校园生活",
        [("校园生活", "/校园生活/")],
        section(
            "多彩校园",
            [
                "东岚大学校园环境优美，滨湖校区依湖而建，绿化覆盖率超过百分之四十。学校拥有学生社团二百余个，每年举办各类文化、体育活动上千场。",
            ],
        )
        + cards(
            "生活服务",
            [
                card("在校生活", "吃住行与日常事务办理。", "/学生/"),
                card("社团活动", "兴趣社团与志愿服务。", "/校园生活/社团"),
                card("体育场馆", "体育馆、游泳馆与运动场开放信息。", "/校园生活/体育"),
            ],
        ),
    ),
    "/学生/": layout(
        "在校生活",
        [("校园生活", "/校园生活/"), ("在校生活", "/学生/")],
        section(
            "生活指南",
            [
                "本栏目为在校学生提供日常生活服务信息，包括公寓、餐饮、医疗等方面。新生报到前请仔细阅读相关内容。",
            ],
        )
        + link_list(
            "生活服务",
            [("公寓", enc("/学生/住宿")), ("餐饮", "/学生/餐饮"), ("医疗", "/学生/医疗")],
        ),
    ),
    "/学生/住宿": layout(
        "学生公寓",
        [("校园生活", "/校园生活/"), ("在校生活", "/学生/"), ("公寓", "/学生/住宿")],
        section(
            "公寓概况",
            [
                "学校现有学生公寓四十六栋，分布在滨湖校区东、西两个宿舍区，可容纳学生两万六千余人。每间公寓均配有空调、热水器、书桌和衣柜。",
                f"公寓收费按学年计算：{HOUSING_FACT}，研究生双人间每年1800元。费用在每学年开学时与其他费用一并缴纳。",
            ],
        )
        + section(
            "管理规定",
            [
                "公寓实行门禁管理，每晚23:00关闭楼门。寒暑假期间需留校的学生须提前在后勤服务平台申请。",
                "公寓内禁止使用大功率电器，禁止饲养宠物。",
            ],
        )
        + link_list(
            "附件", [("Student apartments 2027 (PDF)", "/files/student-apartments-2027.pdf")]
        ),
    ),
    "/学生/餐饮": layout(
        "餐饮",
        [("校园生活", "/校园生活/"), ("在校生活", "/学生/"), ("餐饮", "/学生/餐饮")],
        section(
            "学生食堂", ["学校共有学生食堂八个，提供早、中、晚三餐及夜宵，支持校园卡和手机支付。"]
        ),
    ),
    "/学生/医疗": layout(
        "医疗",
        [("校园生活", "/校园生活/"), ("在校生活", "/学生/"), ("医疗", "/学生/医疗")],
        section("校医院", ["校医院位于滨湖校区北门，门诊时间为工作日8:00-17:00，急诊24小时开放。"]),
    ),
    "/校园生活/社团": layout(
        "社团活动",
        [("校园生活", "/校园生活/"), ("社团活动", "/校园生活/社团")],
        section(
            "学生社团",
            ["学校现有学生社团二百余个，涵盖学术科技、文化艺术、体育健身和志愿公益等类别。"],
        ),
    ),
    "/校园生活/体育": layout(
        "体育场馆",
        [("校园生活", "/校园生活/"), ("体育场馆", "/校园生活/体育")],
        section("开放时间", ["体育馆和游泳馆每天6:30-21:30开放，学生凭校园卡入场。"]),
    ),
    "/服务/": layout(
        "服务指南",
        [("服务指南", "/服务/")],
        section("办事服务", ["本栏目汇集学校各部门面向师生的服务事项，方便师生查询办理。"])
        + cards(
            "常用服务",
            [
                card("文献资源", "纸本图书、电子资源与空间服务。", "/图书馆/", "更多"),
                card("信息化服务", "校园网、邮箱与正版软件。", "/服务/网络", "更多"),
                card("校园卡", "办理、挂失与充值。", "/服务/校园卡", "更多"),
            ],
        ),
    ),
    "/图书馆/": layout(
        "图书馆",
        [("服务指南", "/服务/"), ("图书馆", "/图书馆/")],
        section(
            "图书馆概况",
            [
                "东岚大学图书馆由主馆和东湖分馆组成，总建筑面积五万平方米，馆藏纸本图书三百二十万册，电子图书二百万种。",
                "图书馆提供借阅、参考咨询、学科服务和研讨空间预约等服务。",
            ],
        )
        + link_list(
            "读者指南",
            [("入馆须知", "/library/hours"), ("数据库", "/图书馆/数据库")],
        ),
    ),
    "/library/hours": layout(
        "入馆须知",
        [("服务指南", "/服务/"), ("图书馆", "/图书馆/"), ("入馆须知", "/library/hours")],
        section(
            "开放安排",
            [
                f"主馆：{LIBRARY_FACT}（法定节假日另行通知）。",
                "东湖分馆：周一至周五 8:00-21:00，周六、周日 9:00-17:00。",
                "读者凭校园卡刷卡入馆，校外读者须持有效证件办理临时阅览证。",
            ],
        )
        + section("读者须知", ["馆内请保持安静，禁止饮食，手机调至静音状态。"]),
    ),
    "/图书馆/数据库": layout(
        "数据库",
        [("服务指南", "/服务/"), ("图书馆", "/图书馆/"), ("数据库", "/图书馆/数据库")],
        section("电子资源", ["图书馆订购中外文数据库一百八十余个，校外访问请使用VPN。"]),
    ),
    "/服务/网络": layout(
        "信息化服务",
        [("服务指南", "/服务/"), ("信息化服务", "/服务/网络")],
        section("校园网", ["校园网覆盖全部教学楼和学生公寓，学生每月可免费使用流量50GB。"]),
    ),
    "/服务/校园卡": layout(
        "校园卡",
        [("服务指南", "/服务/"), ("校园卡", "/服务/校园卡")],
        section("校园卡服务", ["校园卡可用于就餐、门禁、借书和缴费，丢失后请及时在线挂失。"]),
    ),
    "/新闻/": layout(
        "新闻",
        [("新闻", "/新闻/")],
        link_list("学校要闻", [(f"{t}（{d}）", news_path(i)) for i, (t, d, _) in enumerate(NEWS)]),
    ),
    "/privacy": layout(
        "隐私政策",
        [("隐私政策", "/privacy")],
        section(
            "个人信息保护", ["本网站仅收集为提供服务所必需的信息，不会向第三方出售用户个人信息。"]
        ),
    ),
}
for _i, (_title, _date, _body) in enumerate(NEWS):
    PAGES[news_path(_i)] = layout(
        _title,
        [("新闻", "/新闻/"), (_title, news_path(_i))],
        f'<p class="date">发布时间：{_date}</p>' + paras(_body),
    )

PDFS: dict[str, tuple[str, list[str]]] = {
    "/files/tuition-fee-schedule-2027.pdf": (
        "Donglan University - Tuition fee schedule 2027 (Donglan Daxue shoufei biaozhun)",
        [
            "Tuition fee schedule 2027: CNY 5,800 per year (engineering).",
            "Science: CNY 5,500 per year. Humanities: CNY 5,000 per year. Arts: CNY 9,800 per year.",
            "Fees are paid at the start of each academic year.",
        ],
    ),
    "/files/international-scholarship-2027.pdf": (
        "Donglan University International Student Scholarship 2027",
        [
            "First class: CNY 30,000 per person per year (yi deng jiang).",
            "Second class: CNY 20,000. Third class: CNY 10,000.",
            "Full-time international degree students are eligible.",
        ],
    ),
    "/files/student-apartments-2027.pdf": (
        "Donglan University - Student apartments 2027 (xuesheng gongyu)",
        [
            "Undergraduate room for four: CNY 1,200 per year.",
            "Postgraduate room for two: CNY 1,800 per year.",
        ],
    ),
    "/files/international-residence-rates-2027.pdf": (
        "Donglan University - International student residence rates 2027",
        [
            "Single room: CNY 80 per night.",
            "Double room: CNY 50 per person per night.",
            "Paid by semester at the residence service desk.",
        ],
    ),
}


def not_found_page() -> Response:
    body = layout(
        "页面不存在",
        [],
        section("404", ["您访问的页面不存在或已被删除。"]) + '<p><a href="/">返回首页</a></p>',
    )
    return html(body, status=404)


def handle(request: Request) -> Response:
    path = request.path
    if path == "/robots.txt":
        return text("User-agent: *\nAllow: /\n")
    if path in PDFS:
        title, lines = PDFS[path]
        return pdf_response(title, lines)
    page = PAGES.get(path)
    if page is None:
        return not_found_page()
    return html(page)


PORTAL = Portal(
    name="chinese",
    handle=handle,
    description="东岚大学 Donglan University: Chinese-language portal with Chinese path segments",
)
