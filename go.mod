module emergo

go 1.26.8
