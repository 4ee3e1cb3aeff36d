package fetch

import "testing"

func TestNormalizeURL(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"https://example.com", "https://example.com/"},
		{"HTTPS://Example.COM/Path/To", "https://example.com/Path/To"},
		{"http://example.com:80/a", "http://example.com/a"},
		{"https://example.com:443/a", "https://example.com/a"},
		{"http://example.com:443/a", "http://example.com:443/a"},
		{"https://example.com:8443/a", "https://example.com:8443/a"},
		{"http://example.com:/a", "http://example.com/a"},
		{"https://example.com/a#section-2", "https://example.com/a"},
		{"https://example.com/a/", "https://example.com/a/"},
		{"https://example.com/a?", "https://example.com/a"},
		{"https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"},
		{"https://example.com/a?z=1&z=0&a=", "https://example.com/a?a=&z=1&z=0"},
		{"https://example.com/?utm_source=ig&utm_medium=social&UTM_Campaign=x&id=7", "https://example.com/?id=7"},
		{"https://example.com/?fbclid=abc&gclid=def&igshid=ghi", "https://example.com/"},
		{"https://youtu.be/dQw4w9WgXcQ?si=share123&t=42", "https://youtu.be/dQw4w9WgXcQ?t=42"},
		{"https://example.com/search?q=seoul+food&page=2", "https://example.com/search?page=2&q=seoul+food"},
		{"https://example.com/search?q=seoul%20food", "https://example.com/search?q=seoul+food"},
		{"https://example.com/%EC%84%9C%EC%9A%B8", "https://example.com/%EC%84%9C%EC%9A%B8"},
		{"https://example.com/a?x=1;y=2", "https://example.com/a?x=1;y=2"}, // unparsable query kept
		{"http://[2001:DB8::1]:80/", "http://[2001:db8::1]/"},
		{"http://[2001:db8::1]:8080/", "http://[2001:db8::1]:8080/"},
		{"  https://example.com/a  ", "https://example.com/a"},
	}
	for _, tt := range tests {
		got, err := NormalizeURL(tt.in)
		if err != nil {
			t.Errorf("NormalizeURL(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("NormalizeURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeURLUnsupported(t *testing.T) {
	for _, in := range []string{
		"ftp://example.com/a",
		"mailto:someone@example.com",
		"javascript:alert(1)",
		"example.com/a",
		"//example.com/a",
		"https://user:pass@example.com/",
		"https:///a",
		"",
		"http://%zz/",
	} {
		_, err := NormalizeURL(in)
		if KindOf(err) != Unsupported {
			t.Errorf("NormalizeURL(%q) err = %v, want kind %s", in, err, Unsupported)
		}
	}
}
