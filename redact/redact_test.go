package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

// Fake secrets are assembled at run time so that no committed line looks
// like a real credential.

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// fill returns n varied letters and digits; seed shifts the sequence.
func fill(n, seed int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[(i*7+seed*13+3)%len(alnum)]
	}
	return string(b)
}

// fillFrom returns n bytes cycling through alphabet with a stride.
func fillFrom(alphabet string, n, seed int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[(i*5+seed)%len(alphabet)]
	}
	return string(b)
}

func upperDigits(n int) string { return fillFrom("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", n, 1) }
func hexLower(n int) string    { return fillFrom("0123456789abcdef", n, 3) }
func b64url(s string) string   { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// Fixtures shared by the tables, the property test and the fuzz seeds.
var (
	anthropicKey   = "sk-ant-api03-" + fill(93, 1) + "AA"
	anthropicAdmin = "sk-ant-admin01-" + fill(80, 2)
	anthropicOAuth = "sk-ant-oat01-" + fill(95, 3)
	openAIProj     = "sk-proj-" + fill(60, 4) + "T3BlbkFJ" + fill(60, 5)
	openAISvc      = "sk-svcacct-" + fill(70, 6)
	openAILegacy   = "sk-" + fill(48, 7)
	githubClassic  = "ghp_" + strings.Repeat("a1B2", 9)
	githubOAuth    = "gho_" + fill(36, 8)
	githubFine     = "github_pat_" + fill(22, 9) + "_" + fill(59, 10)
	gitlabPAT      = "glpat-" + fill(20, 11)
	awsKeyID       = "AKIA" + upperDigits(16)
	awsSTSKeyID    = "ASIA" + upperDigits(16)
	awsSecret      = fill(30, 12) + "/" + fill(8, 13) + "+"
	googleKey      = "AIza" + fill(33, 14) + "-_"
	slackBot       = "xoxb-" + "123456789012-1234567890123-" + fill(24, 15)
	slackHookPath  = "T" + upperDigits(8) + "/B" + upperDigits(10) + "/" + fill(24, 16)
	stripeLive     = "sk_live_" + fill(24, 17)
	stripeRestrict = "rk_test_" + fill(40, 18)
	npmToken       = "npm_" + fill(36, 19)
	pypiToken      = "pypi-AgEIcHlwaS5vcmc" + fill(70, 20)
	hfToken        = "hf_" + fill(34, 21)
	twilioKey      = "SK" + hexLower(32)
	sendgridKey    = "SG." + fill(22, 22) + "." + fill(43, 23)
	jwtToken       = b64url(`{"alg":"HS256","typ":"JWT"}`) + "." + b64url(`{"sub":"1234567890","name":"Test"}`) + "." + fill(43, 24)
	pemBody        = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + fill(64, 25) + "\n" + fill(64, 26) + "\n" + fill(20, 27) + "=="
	pemKey         = "-----BEGIN PRIVATE KEY-----\n" + pemBody + "\n-----END PRIVATE KEY-----"
	pemEscaped     = strings.ReplaceAll(pemKey, "\n", `\n`)
	bearerTok      = fill(40, 28) + "._-"
	basicCreds     = base64.StdEncoding.EncodeToString([]byte("alice:S3cr3t-Pa55w0rd"))
	urlPassword    = "Xy9" + fill(9, 29)
	genericValue   = "Zq8vK2mP9xL4" + fill(8, 30)
)

type tp struct {
	name    string
	in      string
	want    string
	secrets []string // the Secret of each finding, in order
	rules   []string // the Rule of each finding, in order
}

func truePositives() []tp {
	return []tp{
		{"anthropic api key", "export ANTHROPIC_API_KEY=" + anthropicKey,
			"export ANTHROPIC_API_KEY=[REDACTED:anthropic_api_key]", []string{anthropicKey}, []string{ruleAnthropic}},
		{"anthropic admin key", "key: " + anthropicAdmin + "\n",
			"key: [REDACTED:anthropic_api_key]\n", []string{anthropicAdmin}, []string{ruleAnthropic}},
		{"anthropic oauth token in JSON", `{"accessToken":"` + anthropicOAuth + `"}`,
			`{"accessToken":"[REDACTED:anthropic_api_key]"}`, []string{anthropicOAuth}, []string{ruleAnthropic}},
		{"openai project key", `OPENAI_API_KEY="` + openAIProj + `"`,
			`OPENAI_API_KEY="[REDACTED:openai_api_key]"`, []string{openAIProj}, []string{ruleOpenAI}},
		{"openai service account key", "use " + openAISvc + ".",
			"use [REDACTED:openai_api_key].", []string{openAISvc}, []string{ruleOpenAI}},
		{"openai legacy key", "(" + openAILegacy + ")",
			"([REDACTED:openai_api_key])", []string{openAILegacy}, []string{ruleOpenAI}},
		{"github classic pat", "git remote set-url origin x; GH_TOKEN=" + githubClassic + " gh pr list",
			"git remote set-url origin x; GH_TOKEN=[REDACTED:github_token] gh pr list", []string{githubClassic}, []string{ruleGitHub}},
		{"github oauth after JSON newline escape", `"text":"token:\n` + githubOAuth + `\n"`,
			`"text":"token:\n[REDACTED:github_token]\n"`, []string{githubOAuth}, []string{ruleGitHub}},
		{"github fine-grained pat", "pat=" + githubFine,
			"pat=[REDACTED:github_token]", []string{githubFine}, []string{ruleGitHub}},
		{"gitlab pat", "glab auth login --token " + gitlabPAT,
			"glab auth login --token [REDACTED:gitlab_token]", []string{gitlabPAT}, []string{ruleGitLab}},
		{"aws access key id", "aws_access_key_id = " + awsKeyID + "\n",
			"aws_access_key_id = [REDACTED:aws_access_key_id]\n", []string{awsKeyID}, []string{ruleAWSKeyID}},
		{"aws sts key id", `"AccessKeyId": "` + awsSTSKeyID + `"`,
			`"AccessKeyId": "[REDACTED:aws_access_key_id]"`, []string{awsSTSKeyID}, []string{ruleAWSKeyID}},
		{"aws secret access key", "[default]\naws_secret_access_key = " + awsSecret + "\n",
			"[default]\naws_secret_access_key = [REDACTED:aws_secret_access_key]\n", []string{awsSecret}, []string{ruleAWSSecret}},
		{"aws secret in sts json", `"SecretAccessKey": "` + awsSecret + `",`,
			`"SecretAccessKey": "[REDACTED:aws_secret_access_key]",`, []string{awsSecret}, []string{ruleAWSSecret}},
		{"google api key", "https://maps.example.com/api?key=" + googleKey + "&q=1",
			"https://maps.example.com/api?key=[REDACTED:google_api_key]&q=1", []string{googleKey}, []string{ruleGoogle}},
		{"slack bot token", "SLACK_BOT_TOKEN=" + slackBot,
			"SLACK_BOT_TOKEN=[REDACTED:slack_token]", []string{slackBot}, []string{ruleSlack}},
		{"slack webhook", "curl -X POST https://hooks.slack.com/services/" + slackHookPath + " -d @msg.json",
			"curl -X POST https://hooks.slack.com/services/[REDACTED:slack_token] -d @msg.json", []string{slackHookPath}, []string{ruleSlack}},
		{"stripe live key", "stripe.api_key = '" + stripeLive + "'",
			"stripe.api_key = '[REDACTED:stripe_key]'", []string{stripeLive}, []string{ruleStripe}},
		{"stripe restricted test key", stripeRestrict,
			"[REDACTED:stripe_key]", []string{stripeRestrict}, []string{ruleStripe}},
		{"npm token", "//registry.npmjs.org/:_authToken=" + npmToken,
			"//registry.npmjs.org/:_authToken=[REDACTED:npm_token]", []string{npmToken}, []string{ruleNPM}},
		{"pypi token", "password = " + pypiToken,
			"password = [REDACTED:pypi_token]", []string{pypiToken}, []string{rulePyPI}},
		{"huggingface token", "huggingface-cli login --token " + hfToken,
			"huggingface-cli login --token [REDACTED:huggingface_token]", []string{hfToken}, []string{ruleHuggingFace}},
		{"twilio api key", "TWILIO_API_KEY: " + twilioKey,
			"TWILIO_API_KEY: [REDACTED:twilio_api_key]", []string{twilioKey}, []string{ruleTwilio}},
		{"sendgrid api key", "sg = SendGridAPIClient('" + sendgridKey + "')",
			"sg = SendGridAPIClient('[REDACTED:sendgrid_api_key]')", []string{sendgridKey}, []string{ruleSendGrid}},
		{"jwt", "id_token=" + jwtToken + ";",
			"id_token=[REDACTED:jwt];", []string{jwtToken}, []string{ruleJWT}},
		{"jwt as bearer", "Authorization: Bearer " + jwtToken,
			"Authorization: Bearer [REDACTED:jwt]", []string{jwtToken}, []string{ruleJWT}},
		{"pem private key", "key:\n" + pemKey + "\nend",
			"key:\n[REDACTED:private_key]\nend", []string{pemKey}, []string{rulePrivateKey}},
		{"pem in escaped JSON (service account)", `{"type": "service_account", "private_key": "` + pemEscaped + `\n", "client_email": "x@p.iam.gserviceaccount.com"}`,
			`{"type": "service_account", "private_key": "[REDACTED:private_key]\n", "client_email": "x@p.iam.gserviceaccount.com"}`, []string{pemEscaped}, []string{rulePrivateKey}},
		{"openssh key", "-----BEGIN OPENSSH PRIVATE KEY-----\r\n" + pemBody + "\r\n-----END OPENSSH PRIVATE KEY-----\r\n",
			"[REDACTED:private_key]\r\n", []string{"-----BEGIN OPENSSH PRIVATE KEY-----\r\n" + pemBody + "\r\n-----END OPENSSH PRIVATE KEY-----"}, []string{rulePrivateKey}},
		{"pem cut off", "-----BEGIN RSA PRIVATE KEY-----\\n" + fill(64, 31) + "\\n" + fill(40, 32) + `\n"}`,
			`[REDACTED:private_key]\n"}`, []string{"-----BEGIN RSA PRIVATE KEY-----\\n" + fill(64, 31) + "\\n" + fill(40, 32)}, []string{rulePrivateKey}},
		{"bearer header", "curl -H 'Authorization: Bearer " + bearerTok + "' https://api.example.com",
			"curl -H 'Authorization: Bearer [REDACTED:bearer_token]' https://api.example.com", []string{bearerTok}, []string{ruleBearer}},
		{"bearer lowercase", "authorization: bearer " + bearerTok,
			"authorization: bearer [REDACTED:bearer_token]", []string{bearerTok}, []string{ruleBearer}},
		{"bearer wins over generic", `{"Authorization": "Bearer ` + bearerTok + `"}`,
			`{"Authorization": "Bearer [REDACTED:bearer_token]"}`, []string{bearerTok}, []string{ruleBearer}},
		{"provider beats bearer", "Authorization: Bearer " + githubClassic,
			"Authorization: Bearer [REDACTED:github_token]", []string{githubClassic}, []string{ruleGitHub}},
		{"basic auth header", "Authorization: Basic " + basicCreds,
			"Authorization: Basic [REDACTED:basic_auth]", []string{basicCreds}, []string{ruleBasicAuth}},
		{"url credentials", "DATABASE_URL=postgres://app:" + urlPassword + "@db.internal:5432/app",
			"DATABASE_URL=postgres://app:[REDACTED:url_credentials]@db.internal:5432/app", []string{urlPassword}, []string{ruleURL}},
		{"url credentials short password", "mysql://root:hunter2@localhost/db",
			"mysql://root:[REDACTED:url_credentials]@localhost/db", []string{"hunter2"}, []string{ruleURL}},
		{"url credentials with @ in password", "redis://:p@ss" + urlPassword + "@cache:6379",
			"redis://:[REDACTED:url_credentials]@cache:6379", []string{"p@ss" + urlPassword}, []string{ruleURL}},
		{"provider token as url password", "https://x-access-token:" + githubClassic + "@github.com/o/r.git",
			"https://x-access-token:[REDACTED:github_token]@github.com/o/r.git", []string{githubClassic}, []string{ruleGitHub}},
		{"generic env assignment", "export DB_PASSWORD=" + genericValue,
			"export DB_PASSWORD=[REDACTED:generic_secret]", []string{genericValue}, []string{ruleGeneric}},
		{"generic yaml", "database:\n  password: " + genericValue + "\n",
			"database:\n  password: [REDACTED:generic_secret]\n", []string{genericValue}, []string{ruleGeneric}},
		{"generic json", `{"client_secret": "` + genericValue + `", "client_id": "abc"}`,
			`{"client_secret": "[REDACTED:generic_secret]", "client_id": "abc"}`, []string{genericValue}, []string{ruleGeneric}},
		{"generic escaped json", `{"text":"{\"apiKey\": \"` + genericValue + `\"}"}`,
			`{"text":"{\"apiKey\": \"[REDACTED:generic_secret]\"}"}`, []string{genericValue}, []string{ruleGeneric}},
		{"generic after escaped newline", `"content":"set\nSECRET_KEY=` + genericValue + `\nDEBUG=1"`,
			`"content":"set\nSECRET_KEY=[REDACTED:generic_secret]\nDEBUG=1"`, []string{genericValue}, []string{ruleGeneric}},
		{"generic go", `password := "` + genericValue + `"`,
			`password := "[REDACTED:generic_secret]"`, []string{genericValue}, []string{ruleGeneric}},
		{"generic subscript", `os.environ["AUTH_TOKEN"] = '` + genericValue + `'`,
			`os.environ["AUTH_TOKEN"] = '[REDACTED:generic_secret]'`, []string{genericValue}, []string{ruleGeneric}},
		{"generic header", "X-Api-Key: " + hexLower(32),
			"X-Api-Key: [REDACTED:generic_secret]", []string{hexLower(32)}, []string{ruleGeneric}},
		{"generic changeme", "password=changeme",
			"password=[REDACTED:generic_secret]", []string{"changeme"}, []string{ruleGeneric}},
		{"several in one line", "A=" + githubClassic + " B=" + npmToken,
			"A=[REDACTED:github_token] B=[REDACTED:npm_token]", []string{githubClassic, npmToken}, []string{ruleGitHub, ruleNPM}},
	}
}

func TestTruePositives(t *testing.T) {
	for _, tc := range truePositives() {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(tc.in); got != tc.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			fs := Find(tc.in)
			if len(fs) != len(tc.secrets) {
				t.Fatalf("Find(%q) = %+v, want %d findings", tc.in, fs, len(tc.secrets))
			}
			for i, f := range fs {
				if f.Secret != tc.secrets[i] || f.Rule != tc.rules[i] {
					t.Errorf("finding %d = %s %q, want %s %q", i, f.Rule, f.Secret, tc.rules[i], tc.secrets[i])
				}
				if tc.in[f.Start:f.End] != f.Secret {
					t.Errorf("finding %d: input[%d:%d] = %q, not the secret", i, f.Start, f.End, tc.in[f.Start:f.End])
				}
			}
			// Redacting twice changes nothing, and a masked preview is
			// never itself a finding.
			if again := String(tc.want); again != tc.want {
				t.Errorf("String is not idempotent:\n got %q\nwant %q", again, tc.want)
			}
			for _, sec := range tc.secrets {
				if m := Mask(sec); m != "" && Find(m) != nil {
					t.Errorf("Find(Mask(%q)) = %+v, want none", sec, Find(m))
				}
			}
		})
	}
}

func TestEveryRuleHasATruePositive(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range truePositives() {
		for _, r := range tc.rules {
			seen[r] = true
		}
	}
	for _, r := range Rules() {
		if !seen[r] {
			t.Errorf("rule %s has no true-positive case", r)
		}
	}
}

// falsePositive is a text with no secret in it.
type falsePositive struct{ name, in string }

// falsePositives are texts that look like secrets and are not, with near
// misses for every rule.
func falsePositives() []falsePositive {
	png := "iVBORw0KGgoAAAANSUhEUgAA" + base64.StdEncoding.EncodeToString(pseudoRandom(6000, 1))
	return []falsePositive{
		// Named by the contract.
		{"uuid", "session 0b7d1a1e-5c3f-4a5e-9c1e-2f8e6a7b9c0d resumed"},
		{"git sha", "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)"},
		{"message id", `{"id":"msg_01XyZ3abCdEfGhIjKlMnOpQrSt","type":"message"}`},
		{"tool use id", `{"tool_use_id":"toolu_01ABCdefGHIjklMNOpqrSTUv","content":"ok"}`},
		{"png base64", `{"type":"image","source":{"data":"` + png + `"}}`},
		{"token count", "token_count=12345"},
		{"empty password", `password: ""`},
		{"max tokens", "max_tokens: 4096"},
		{"input tokens", "input_tokens"},
		{"cache read tokens", `"cache_read_input_tokens": 86789`},
		{"sk- alone", "keys start with sk- and are long"},
		{"prose", "the API key is stored in the env"},
		// Near misses, one or more per rule.
		{"anthropic elided", "set it to sk-ant-... in your shell"},
		{"anthropic too short", "sk-ant-api03-" + fill(10, 1)},
		{"openai one short", "sk-" + fill(47, 7)},
		{"openai inside word", "task-" + fill(48, 7)},
		{"github one short", "ghp_" + fill(35, 8)},
		{"github unknown prefix", "ghx_" + fill(36, 8)},
		{"github placeholder", "ghp_" + strings.Repeat("x", 36)},
		{"gitlab too short", "glpat-" + fill(12, 11)},
		{"aws key id one short", "AKIA" + upperDigits(15)},
		{"aws key id inside word", "XAKIA" + upperDigits(16)},
		{"aws documented example", "AKIAIOSFODNN7" + "EXAMPLE"},
		{"aws secret placeholder", "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}"},
		{"aws secret documented example", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"},
		{"google one short", "AIza" + fill(34, 14)},
		{"slack too short", "xoxb-123"},
		{"slack webhook docs", "https://hooks.slack.com/services/T000/B000/XXXX"},
		{"stripe publishable", "pk_live_" + fill(24, 17)},
		{"npm config", "npm_config_cache=/tmp/npm"},
		{"pypi without macaroon", "pypi-" + fill(60, 20)},
		{"huggingface short", "hf_hub_download"},
		{"twilio one short", "SK" + hexLower(31)},
		{"twilio account sid", "AC" + hexLower(32)},
		{"sendgrid half", "SG." + fill(22, 22)},
		{"jwt header only", "eyJhbGciOiJIUzI1NiJ9 is a header"},
		{"jwt short segments", "eyJhbGciOiJIUzI1NiJ9.eyJ.abc"},
		{"public key", "-----BEGIN PUBLIC KEY-----\n" + pemBody + "\n-----END PUBLIC KEY-----"},
		{"certificate", "-----BEGIN CERTIFICATE-----\n" + pemBody + "\n-----END CERTIFICATE-----"},
		{"pem header in prose", "files start with -----BEGIN RSA PRIVATE KEY----- and end with -----END RSA PRIVATE KEY-----."},
		{"bearer prose", "the bearer of this token must be authenticated"},
		{"bearer variable", `-H "Authorization: Bearer $GITHUB_TOKEN"`},
		{"bearer placeholder", "Authorization: Bearer <token>"},
		{"bearer upper name", "Authorization: Bearer YOUR_ACCESS_TOKEN"},
		{"basic prose", "Basic usage of the API is simple"},
		{"basic placeholder", "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:password"))},
		{"url without userinfo", "see https://github.com/anthropics/claude-code/issues/123"},
		{"url with user only", "ssh://git@github.com/org/repo.git"},
		{"url with port", "http://localhost:8080/path?x=1"},
		{"url env placeholder", "postgres://app:${DB_PASSWORD}@db:5432/app"},
		{"url angle placeholder", "postgres://app:<password>@db:5432/app"},
		{"url masked", "postgres://app:****@db:5432/app"},
		{"url word placeholder", "mongodb://user:password@localhost:27017"},
		{"generic placeholder", "API_KEY=your-api-key-here"},
		{"generic xxx", "secret: xxxxxxxxxxxxxxxx"},
		{"generic process.env", "const token = process.env.GITHUB_TOKEN;"},
		{"generic os.environ", `password = os.environ["DB_PASSWORD"]`},
		{"generic getenv call", `apiKey := os.Getenv("API_KEY")`},
		{"generic call", "token = get_token(user)"},
		{"generic type annotation", "password: string;"},
		{"generic identifier", "token: accessToken,"},
		{"generic upper identifier", "token: GITHUB_TOKEN"},
		{"generic dotted reference", "api_key=settings.openai_api_key"},
		{"generic github actions", "token: ${{ secrets.GITHUB_TOKEN }}"},
		{"generic template", `password: "{{ .Values.password }}"`},
		{"generic low entropy", "password=aaaaaaa1"},
		{"generic digits", "auth_code=12345678901"},
		{"generic url value", `"token_url": "https://oauth2.googleapis.com/token"`},
		{"generic name suffix", `"private_key_id": "` + hexLower(40) + `"`},
		{"generic author", "author: Jane-Doe-1970"},
		{"generic pwd", "PWD=/home/user/project1"},
		{"generic comparison", `if token == "` + genericValue + `" {`},
		{"generic spaces", `"password_hint": "the name of my first cat"`},
		{"generic email", "auth_user=alice.smith@example.org"},
		{"generic path", "secret_file: /run/secrets/db_pw1"},
		{"generic short", "password=hunter2"},
		{"claude settings helper", `"apiKeyHelper": "~/.claude/anthropic_key.sh"`},
	}
}

func TestFalsePositives(t *testing.T) {
	for _, tc := range falsePositives() {
		t.Run(tc.name, func(t *testing.T) {
			if fs := Find(tc.in); fs != nil {
				t.Errorf("Find(%.200q) = %+v, want none", tc.in, fs)
			}
			if got := String(tc.in); got != tc.in {
				t.Errorf("String changed %.200q to %.200q", tc.in, got)
			}
		})
	}
}

func TestRepeatedSecretIsRedactedEverywhere(t *testing.T) {
	in := "DB_PASSWORD=" + genericValue + "\nlater I typed " + genericValue + " into the prompt"
	want := "DB_PASSWORD=[REDACTED:generic_secret]\nlater I typed [REDACTED:generic_secret] into the prompt"
	if got := String(in); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Many distinct secrets take the shared-pass search.
	var b strings.Builder
	var secrets []string
	for i := 0; i < 40; i++ {
		sec := "ghp_" + fill(36, 100+i)
		secrets = append(secrets, sec)
		b.WriteString("T=" + sec + "\n")
	}
	for _, sec := range secrets {
		b.WriteString("copy:" + sec + "x\n") // glued to a letter: not detected on its own
	}
	out := String(b.String())
	for _, sec := range secrets {
		if strings.Contains(out, sec) {
			t.Fatalf("output still contains %q", sec)
		}
	}
}

func TestFindOrderAndOverlap(t *testing.T) {
	in := "API_TOKEN=" + githubClassic + " url=https://u:" + urlPassword + "@h/ " + jwtToken
	fs := Find(in)
	wantRules := []string{ruleGitHub, ruleURL, ruleJWT}
	if len(fs) != len(wantRules) {
		t.Fatalf("got %+v", fs)
	}
	for i, f := range fs {
		if f.Rule != wantRules[i] {
			t.Errorf("finding %d rule %s, want %s", i, f.Rule, wantRules[i])
		}
		if i > 0 && f.Start < fs[i-1].End {
			t.Errorf("finding %d overlaps the previous one", i)
		}
	}
}

func TestMask(t *testing.T) {
	cases := []struct{ in, want string }{
		{githubClassic, "ghp_a1********a1B2"},
		{"ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789", "ghp_ab********6789"},
		{"0123456789abcdefghi", ""},                    // 19 bytes
		{"0123456789abcdefghij", "012345********ghij"}, // 20 bytes
		{"", ""},
		{"ééééééééééééééééééééé", "éééééé********éééé"},
		{"ééééééééé", ""},                                           // 18 bytes but 9 characters
		{"\xff\xfe" + strings.Repeat("a", 20), "?aaaa********aaaa"}, // an invalid run becomes one ?,
	}
	for _, tc := range cases {
		if got := Mask(tc.in); got != tc.want {
			t.Errorf("Mask(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFingerprint(t *testing.T) {
	// SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223...
	if got := Fingerprint("abc"); got != "ba7816bf8f01cfea" {
		t.Errorf("Fingerprint(abc) = %q", got)
	}
	if Fingerprint(githubClassic) == Fingerprint(npmToken) {
		t.Error("different secrets share a fingerprint")
	}
}

func TestRulesAndGuidance(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, r := range Rules() {
		if !snake.MatchString(r) {
			t.Errorf("rule %q is not snake_case", r)
		}
		if seen[r] {
			t.Errorf("rule %q listed twice", r)
		}
		seen[r] = true
		g := Guidance(r)
		if len(g) < 40 || !strings.HasSuffix(g, ".") {
			t.Errorf("Guidance(%q) = %q, want one or two sentences", r, g)
		}
	}
	if Guidance("no_such_rule") != "" {
		t.Error("Guidance of an unknown rule is not empty")
	}
	rs := Rules()
	rs[0] = "changed"
	if Rules()[0] == "changed" {
		t.Error("Rules returns shared memory")
	}
}

func TestHostileInputs(t *testing.T) {
	inputs := []string{
		"",
		"\xff\xfe\xfd=:-_.",
		strings.Repeat("-----BEGIN PRIVATE KEY-----", 5000),
		strings.Repeat("password=", 20000),
		strings.Repeat("token:", 20000),
		strings.Repeat("a://", 20000),
		strings.Repeat("Bearer ", 20000),
		strings.Repeat("eyJ", 20000) + ".",
		strings.Repeat("sk-", 20000),
		"x://u:" + strings.Repeat("p", 100000) + "@h",
		"-----BEGIN PRIVATE KEY-----\n" + strings.Repeat("A", 1<<20),
		strings.Repeat("=", 100000),
		strings.Repeat(":", 100000),
	}
	for _, in := range inputs {
		out := String(in)
		for _, f := range Find(in) {
			if len(f.Secret) >= minRepeat && strings.Contains(out, f.Secret) {
				t.Errorf("secret of %s leaked", f.Rule)
			}
		}
	}
}
