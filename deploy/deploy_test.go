package deploy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// manifests are the objects of deploy/k8s, each decoded strictly (an unknown or misplaced
// field fails) into its Kubernetes API type.
type manifests struct {
	configMaps  map[string]*corev1.ConfigMap
	deployment  *appsv1.Deployment
	job         *batchv1.Job
	service     *corev1.Service
	pdb         *policyv1.PodDisruptionBudget
	ingress     *networkingv1.Ingress
	kustomize   kustomization
	resourceSet []string // the manifest files, kustomization.yaml aside
}

// kustomization is the part of kustomize's Kustomization these manifests use; decoding it
// strictly fails on any other field, so a new one must be added here, knowingly.
type kustomization struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Resources  []string `json:"resources"`
	Images     []struct {
		Name    string `json:"name"`
		NewName string `json:"newName"`
		NewTag  string `json:"newTag"`
	} `json:"images"`
}

func load(t *testing.T) manifests {
	t.Helper()
	m := manifests{configMaps: map[string]*corev1.ConfigMap{}}
	files, err := filepath.Glob(filepath.Join("k8s", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in deploy/k8s: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if !strings.HasSuffix(name, ".yaml") {
			t.Fatalf("%s: deploy/k8s holds .yaml manifests only", f)
		}
		if regexp.MustCompile(`(?m)^---`).Match(b) {
			t.Fatalf("%s: one object per file", f)
		}
		if name == "kustomization.yaml" {
			if err := yaml.UnmarshalStrict(b, &m.kustomize); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			continue
		}
		m.resourceSet = append(m.resourceSet, name)
		var meta metav1.TypeMeta
		if err := yaml.Unmarshal(b, &meta); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var obj any
		switch meta.APIVersion + " " + meta.Kind {
		case "v1 ConfigMap":
			obj = &corev1.ConfigMap{}
		case "apps/v1 Deployment":
			m.deployment = &appsv1.Deployment{}
			obj = m.deployment
		case "batch/v1 Job":
			m.job = &batchv1.Job{}
			obj = m.job
		case "v1 Service":
			m.service = &corev1.Service{}
			obj = m.service
		case "policy/v1 PodDisruptionBudget":
			m.pdb = &policyv1.PodDisruptionBudget{}
			obj = m.pdb
		case "networking.k8s.io/v1 Ingress":
			m.ingress = &networkingv1.Ingress{}
			obj = m.ingress
		default:
			t.Fatalf("%s: %s %s is not a kind this test knows; add it here with its checks", f, meta.APIVersion, meta.Kind)
		}
		if err := yaml.UnmarshalStrict(b, obj); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if cm, ok := obj.(*corev1.ConfigMap); ok {
			m.configMaps[cm.Name] = cm
		}
	}
	if m.deployment == nil || m.job == nil || m.service == nil || m.pdb == nil {
		t.Fatal("deploy/k8s needs a Deployment, a migration Job, a Service and a PodDisruptionBudget")
	}
	return m
}

// The manifests are valid Kubernetes objects and kustomization.yaml lists exactly them, with
// the image the workloads name.
func TestKustomization(t *testing.T) {
	m := load(t)
	k := m.kustomize
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		t.Errorf("kustomization.yaml: %s %s", k.APIVersion, k.Kind)
	}
	if got, want := slices.Sorted(slices.Values(k.Resources)), slices.Sorted(slices.Values(m.resourceSet)); !slices.Equal(got, want) {
		t.Errorf("kustomization resources %v, want the files of deploy/k8s %v", got, want)
	}
	image := container(t, m.deployment.Spec.Template.Spec).Image
	if len(k.Images) != 1 || k.Images[0].Name != image || k.Images[0].NewName == "" || k.Images[0].NewTag == "" {
		t.Errorf("kustomization images %+v: want one entry for %q giving its registry name and tag", k.Images, image)
	}
}

// container is the pod's one container.
func container(t *testing.T, pod corev1.PodSpec) corev1.Container {
	t.Helper()
	if len(pod.Containers) != 1 || len(pod.InitContainers) != 0 {
		t.Fatalf("want one container, found %d (and %d init containers)", len(pod.Containers), len(pod.InitContainers))
	}
	return pod.Containers[0]
}

// environment is the container's environment as the manifests give it: its ConfigMaps' data,
// then its own variables (their literal values; "" for a secret's).
func environment(t *testing.T, m manifests, c corev1.Container) map[string]string {
	t.Helper()
	vars := map[string]string{}
	for _, from := range c.EnvFrom {
		if from.ConfigMapRef == nil {
			t.Fatalf("%s: envFrom takes ConfigMaps only (secret variables are named one by one)", c.Name)
		}
		cm, ok := m.configMaps[from.ConfigMapRef.Name]
		if !ok {
			t.Fatalf("%s: envFrom names ConfigMap %s, not in deploy/k8s", c.Name, from.ConfigMapRef.Name)
		}
		for k, v := range cm.Data {
			vars[k] = v
		}
	}
	for _, e := range c.Env {
		vars[e.Name] = e.Value
	}
	return vars
}

// stopBudget is the longest the server takes to stop after SIGTERM, read from
// cmd/tripplan/run.go: stopTimeout times the steps it bounds.
func stopBudget(t *testing.T) time.Duration {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join("..", "cmd", "tripplan", "run.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var timeout time.Duration
	steps := 0
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if len(n.Names) == 1 && n.Names[0].Name == "stopTimeout" && len(n.Values) == 1 {
				timeout = seconds(n.Values[0])
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "WithTimeout" && len(n.Args) == 2 {
				if id, ok := n.Args[1].(*ast.Ident); ok && id.Name == "stopTimeout" {
					steps++
				}
			}
		}
		return true
	})
	if timeout == 0 || steps == 0 {
		t.Fatalf("cmd/tripplan/run.go: want const stopTimeout = N * time.Second bounding context.WithTimeout calls; found %v, %d calls", timeout, steps)
	}
	return time.Duration(steps) * timeout
}

// seconds evaluates `N * time.Second`; anything else is 0.
func seconds(e ast.Expr) time.Duration {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.MUL {
		return 0
	}
	lit, ok1 := b.X.(*ast.BasicLit)
	sel, ok2 := b.Y.(*ast.SelectorExpr)
	if !ok1 || !ok2 || lit.Kind != token.INT || sel.Sel.Name != "Second" {
		return 0
	}
	n, _ := strconv.Atoi(lit.Value)
	return time.Duration(n) * time.Second
}

// probePort is the container port a probe's HTTP check goes to, by name or number.
func probePort(t *testing.T, c corev1.Container, p *corev1.Probe, path string) int32 {
	t.Helper()
	if p == nil || p.HTTPGet == nil {
		t.Fatalf("%s: want an HTTP probe on %s", c.Name, path)
	}
	if p.HTTPGet.Path != path {
		t.Errorf("%s: probe on %s, want %s", c.Name, p.HTTPGet.Path, path)
	}
	return containerPort(t, c, p.HTTPGet.Port)
}

func containerPort(t *testing.T, c corev1.Container, port intstr.IntOrString) int32 {
	t.Helper()
	for _, cp := range c.Ports {
		if (port.Type == intstr.String && cp.Name == port.StrVal) || (port.Type == intstr.Int && cp.ContainerPort == port.IntVal) {
			return cp.ContainerPort
		}
	}
	t.Fatalf("%s: port %s is none of the container's", c.Name, port.String())
	return 0
}

// The Deployment serves where its probes look, leaves the pod time to leave the endpoints and
// to drain, and runs as the locked-down user of the image.
func TestDeployment(t *testing.T) {
	m := load(t)
	d := m.deployment
	pod := d.Spec.Template.Spec
	c := container(t, pod)
	if d.Spec.Replicas == nil || *d.Spec.Replicas < 2 {
		t.Errorf("replicas %v: several instances are the point", d.Spec.Replicas)
	}
	if len(c.Ports) != 1 {
		t.Fatalf("want one container port, found %v", c.Ports)
	}
	port := c.Ports[0].ContainerPort
	vars := environment(t, m, c)
	if addr := vars["ADDR"]; addr != ":"+strconv.Itoa(int(port)) {
		t.Errorf("ADDR %q: the server must listen on the container port %d", addr, port)
	}
	if got := probePort(t, c, c.ReadinessProbe, "/readyz"); got != port {
		t.Errorf("readiness probe on port %d, the server listens on %d", got, port)
	}
	if got := probePort(t, c, c.LivenessProbe, "/healthz"); got != port {
		t.Errorf("liveness probe on port %d, the server listens on %d", got, port)
	}
	if c.StartupProbe != nil {
		if got := probePort(t, c, c.StartupProbe, "/healthz"); got != port {
			t.Errorf("startup probe on port %d, the server listens on %d", got, port)
		}
	}
	if on, err := strconv.ParseBool(vars["MIGRATE_ON_START"]); err != nil || on {
		t.Errorf("MIGRATE_ON_START %q: the migration Job migrates, the servers must not", vars["MIGRATE_ON_START"])
	}

	// The distroless image has no shell or sleep command: preStop is Kubernetes' own sleep.
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Sleep == nil || c.Lifecycle.PreStop.Sleep.Seconds < 5 {
		t.Fatalf("want a preStop sleep of at least 5 s (the endpoints and the ingress drop the pod meanwhile), got %+v", c.Lifecycle)
	}
	preStop := time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
	stop := stopBudget(t)
	var grace time.Duration
	if pod.TerminationGracePeriodSeconds != nil {
		grace = time.Duration(*pod.TerminationGracePeriodSeconds) * time.Second
	}
	if grace <= preStop+stop {
		t.Errorf("terminationGracePeriodSeconds %v: must exceed preStop (%v) plus the server's stopping (%v, run.go)", grace, preStop, stop)
	}
	checkLockedDown(t, pod, c)
	if !labels.SelectorFromSet(d.Spec.Selector.MatchLabels).Matches(labels.Set(d.Spec.Template.Labels)) || len(d.Spec.Selector.MatchExpressions) > 0 {
		t.Errorf("the Deployment's selector %v does not select its pods %v", d.Spec.Selector, d.Spec.Template.Labels)
	}
}

// checkLockedDown: not root, nothing written to the image's file system, no privilege gained,
// resources asked for.
func checkLockedDown(t *testing.T, pod corev1.PodSpec, c corev1.Container) {
	t.Helper()
	nonRoot := func(sc *corev1.PodSecurityContext) bool {
		return sc != nil && sc.RunAsNonRoot != nil && *sc.RunAsNonRoot
	}
	sc := c.SecurityContext
	if !nonRoot(pod.SecurityContext) && (sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot) {
		t.Errorf("%s: want runAsNonRoot", c.Name)
	}
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsUser == nil || *pod.SecurityContext.RunAsUser != distrolessNonroot {
		t.Errorf("%s: want runAsUser %d, the image's nonroot user", c.Name, distrolessNonroot)
	}
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Errorf("%s: want readOnlyRootFilesystem and no privilege escalation, got %+v", c.Name, sc)
	}
	if c.Resources.Requests.Memory().IsZero() || c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("%s: want CPU and memory requests and a memory limit, got %+v", c.Name, c.Resources)
	}
}

// distrolessNonroot is the uid of the user nonroot in gcr.io/distroless images.
const distrolessNonroot = 65532

// The Job runs the same image in migrate mode, with the servers' configuration.
func TestMigrationJob(t *testing.T) {
	m := load(t)
	server := container(t, m.deployment.Spec.Template.Spec)
	pod := m.job.Spec.Template.Spec
	c := container(t, pod)
	if c.Image != server.Image {
		t.Errorf("the Job runs image %q, the Deployment %q", c.Image, server.Image)
	}
	if len(c.Command) != 0 || !slices.Equal(c.Args, []string{"migrate"}) {
		t.Errorf("the Job runs command %q args %q: want the image's entrypoint with the one argument migrate", c.Command, c.Args)
	}
	if pod.RestartPolicy != corev1.RestartPolicyNever && pod.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("restartPolicy %q", pod.RestartPolicy)
	}
	if !reflect.DeepEqual(c.EnvFrom, server.EnvFrom) {
		t.Errorf("the Job's envFrom %+v differs from the servers' %+v", c.EnvFrom, server.EnvFrom)
	}
	for _, e := range c.Env {
		if i := slices.IndexFunc(server.Env, func(s corev1.EnvVar) bool { return s.Name == e.Name }); i < 0 || !reflect.DeepEqual(server.Env[i], e) {
			t.Errorf("the Job sets %s otherwise than the servers", e.Name)
		}
	}
	if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "DATABASE_URL" }) {
		t.Error("the Job has no DATABASE_URL")
	}
	checkLockedDown(t, pod, c)
}

// The Service, the disruption budget and the Ingress reach the Deployment's pods and port.
func TestTraffic(t *testing.T) {
	m := load(t)
	pods := labels.Set(m.deployment.Spec.Template.Labels)
	server := container(t, m.deployment.Spec.Template.Spec)
	s := m.service
	if len(s.Spec.Selector) == 0 || !labels.SelectorFromSet(s.Spec.Selector).Matches(pods) {
		t.Errorf("the Service selects %v, not the servers %v", s.Spec.Selector, pods)
	}
	if labels.SelectorFromSet(s.Spec.Selector).Matches(labels.Set(m.job.Spec.Template.Labels)) {
		t.Error("the Service selects the migration Job's pod too")
	}
	for _, p := range s.Spec.Ports {
		containerPort(t, server, p.TargetPort)
	}
	sel, err := metav1.LabelSelectorAsSelector(m.pdb.Spec.Selector)
	if err != nil || sel.Empty() || !sel.Matches(pods) {
		t.Errorf("the PodDisruptionBudget selects %v, not the servers %v (%v)", m.pdb.Spec.Selector, pods, err)
	}
	if m.pdb.Spec.MaxUnavailable == nil && m.pdb.Spec.MinAvailable == nil {
		t.Error("the PodDisruptionBudget sets neither maxUnavailable nor minAvailable")
	}
	if m.ingress == nil {
		return
	}
	for _, rule := range m.ingress.Spec.Rules {
		for _, p := range rule.HTTP.Paths {
			b := p.Backend.Service
			if b == nil || b.Name != s.Name || !slices.ContainsFunc(s.Spec.Ports, func(sp corev1.ServicePort) bool {
				return sp.Name == b.Port.Name && b.Port.Name != "" || sp.Port == b.Port.Number && b.Port.Number != 0
			}) {
				t.Errorf("Ingress path %s goes to %+v, not a port of the Service %s", p.Path, b, s.Name)
			}
		}
	}
	if a := m.ingress.Annotations; a["nginx.ingress.kubernetes.io/proxy-buffering"] != "off" {
		t.Error("the Ingress buffers responses: live-update streams would not flow")
	}
}
